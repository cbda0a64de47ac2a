import { createHash } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'
import { ACCESS_TOKEN_TTL_MS } from '../../../domain/advertiser-account.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { newSecret } from '../../platform/secret.ts'
import { ensureGeneratedKey } from './repo.ts'

// Advertisers' access tokens (api-v1 "Advertisers", spec §7): JWTs signed with HS256 (jose), 15
// minutes, naming the account (sub) and its session family (fam). The keys come from
// ADVERTISER_TOKEN_KEYS: the first signs, any verifies, each known by its id (kid: a digest of the
// key, never the key), so a new key put first signs nobody out. Without the setting (never in prod,
// platform/env.ts) a key is made once and kept in the database, the same for every instance.

const ISSUER = 'shouts'
const AUDIENCE = 'shouts-advertisers'
const ALGORITHM = 'HS256'

type SigningKey = { kid: string; secret: Uint8Array }

export type AccessClaims = { accountId: string; familyId: string }

/** Why a token is refused: not one of ours (spec §7 "Unable to parse…"), or expired. */
export type TokenProblem = 'session_token_unreadable' | 'session_token_expired'

const keyOf = (secret: string): SigningKey => ({
  kid: createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 16),
  secret: new TextEncoder().encode(secret),
})

export type AccessTokens = ReturnType<typeof createAccessTokens>

export function createAccessTokens(deps: {
  /** ADVERTISER_TOKEN_KEYS, or undefined: a key kept in the database. */
  configuredKeys: readonly string[] | undefined
  db: Queryable
}) {
  let keys: Promise<SigningKey[]> | null = null
  const loadKeys = (): Promise<SigningKey[]> => {
    keys ??= (async () => {
      if (deps.configuredKeys?.length) return deps.configuredKeys.map(keyOf)
      const secret = await ensureGeneratedKey(deps.db, 'generated', newSecret())
      return [keyOf(secret)]
    })().catch((error) => {
      keys = null
      throw error
    })
    return keys
  }

  return {
    /** A signed access token for the account's session, and when it expires. */
    async sign(
      claims: AccessClaims,
      nowEpochMs: number,
    ): Promise<{ token: string; expiresAtEpochMs: number }> {
      const [key] = await loadKeys()
      if (!key) throw new Error('no key signs advertisers’ access tokens')
      const issuedAt = Math.floor(nowEpochMs / 1000)
      const expiresAtEpochMs = issuedAt * 1000 + ACCESS_TOKEN_TTL_MS
      const token = await new SignJWT({ fam: claims.familyId })
        .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: 'JWT' })
        .setSubject(claims.accountId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAtEpochMs / 1000)
        .sign(key.secret)
      return { token, expiresAtEpochMs }
    },

    /** The claims of a token of ours that has not expired at `nowEpochMs`, or why not. */
    async verify(
      token: string,
      nowEpochMs: number,
    ): Promise<{ ok: true; claims: AccessClaims } | { ok: false; problem: TokenProblem }> {
      const known = await loadKeys()
      try {
        const { payload } = await jwtVerify(
          token,
          (header) => {
            const key = known.find((k) => k.kid === header.kid)
            if (!key) throw new errors.JWSSignatureVerificationFailed('unknown key')
            return key.secret
          },
          {
            issuer: ISSUER,
            audience: AUDIENCE,
            algorithms: [ALGORITHM],
            currentDate: new Date(nowEpochMs),
            requiredClaims: ['sub', 'exp', 'iat'],
          },
        )
        const familyId = payload.fam
        if (typeof payload.sub !== 'string' || typeof familyId !== 'string') {
          return { ok: false, problem: 'session_token_unreadable' }
        }
        return { ok: true, claims: { accountId: payload.sub, familyId } }
      } catch (error) {
        if (error instanceof errors.JWTExpired)
          return { ok: false, problem: 'session_token_expired' }
        return { ok: false, problem: 'session_token_unreadable' }
      }
    },
  }
}
