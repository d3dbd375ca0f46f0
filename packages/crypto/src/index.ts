export { constantTimeEqual, sha256Hex } from "./digest.ts"
export {
  decodeEncryptionKey,
  ENCRYPTION_KEY_BYTES,
  type EncryptionKey,
  encryptionKeyFromBytes,
  InvalidEncryptionKey
} from "./encryption-key.ts"
export { decryptSecret, encryptSecret, isEncryptedSecret, openSecret, sealSecret, SecretDecryptionError } from "./envelope.ts"
export { randomDigits, randomHex, randomToken } from "./random.ts"
export { keyedDigest } from "./keyed-digest.ts"
export { hashSecret, SCRYPT_PARAMS, verifyAgainstDummy, verifySecret } from "./secret-hash.ts"
export { makeSecretsAtRest, type SecretsAtRest } from "./secrets-at-rest.ts"
export { checkP256PrivateKey } from "./p256-private-key.ts"
