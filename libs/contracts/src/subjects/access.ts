import { z } from 'zod';
import { defineBroadcast } from '../define';

/**
 * API keys revoked (a client erased, demo keys replaced): every gateway drops them from its key cache
 * on receipt, so a revoked key is refused everywhere at once, not when a replica's cache expires.
 * Keys are named by their SHA-256 (never the key, never the client).
 */
export const KeysRevoked = z.object({
  key_hashes: z
    .array(z.string().regex(/^[0-9a-f]{64}$/))
    .min(1)
    .max(10_000),
});
export type KeysRevoked = z.infer<typeof KeysRevoked>;

export const AccessBroadcasts = {
  keysRevoked: defineBroadcast({ subject: 'cota.gateway.keys-revoked.v1', service: 'gateway', payload: KeysRevoked }),
};
