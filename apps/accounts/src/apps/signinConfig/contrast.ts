/** WCAG 2.x relative luminance of a #rrggbb color. */
export const relativeLuminance = (hex: string): number => {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** WCAG 2.x contrast ratio of two #rrggbb colors, from 1 to 21. */
export const contrastRatio = (a: string, b: string): number => {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)]
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

export const MIN_TEXT_CONTRAST = 4.5
