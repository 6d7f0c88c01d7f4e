import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { api, ApiError, call, setCsrfToken, type Schemas } from '../api/client';
import type { Role } from './roles';

export interface Session {
  account: { id: string; email: string; tenant_id: string; role: Role; plan_tier: string };
  session_id: string;
  expires_at: string;
}

export function useSessionQuery() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        const s = await call(api.GET('/api/v1/console/session'));
        setCsrfToken(s.csrf_token);
        return s as unknown as Session;
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}

const Ctx = createContext<Session | null>(null);
export const SessionProvider = ({ session, children }: { session: Session; children: ReactNode }) => (
  <Ctx.Provider value={session}>{children}</Ctx.Provider>
);
export function useSession(): Session {
  const s = useContext(Ctx);
  if (!s) throw new Error('not signed in');
  return s;
}

export function useSignOut() {
  const qc = useQueryClient();
  return async () => {
    try {
      await call(api.DELETE('/api/v1/console/session'));
    } finally {
      setCsrfToken(null);
      qc.setQueryData(['session'], null);
      // Nothing of the signed-out account stays in memory.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    }
  };
}

export type Me = Schemas extends never ? never : Awaited<ReturnType<typeof fetchMe>>;
export async function fetchMe() {
  return call(api.GET('/api/v1/accounts/me'));
}
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: fetchMe, staleTime: 30_000 });
}
