import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { keyFingerprint, parseVerifierKey, type VerifierKey } from './verify';

export interface LogIdentity {
  origin: string;
  key: VerifierKey;
  previous: VerifierKey[];
  fingerprint: string;
  all: VerifierKey[];
}

export function useLogIdentity() {
  return useQuery({
    queryKey: ['audit-key'],
    staleTime: 5 * 60_000,
    queryFn: async (): Promise<LogIdentity> => {
      const k = await call(api.GET('/api/v1/audit/key'));
      const key = await parseVerifierKey(k.verifier_key);
      const previous = await Promise.all(k.previous_verifier_keys.map(parseVerifierKey));
      return { origin: k.origin, key, previous, fingerprint: await keyFingerprint(key), all: [key, ...previous] };
    },
  });
}
