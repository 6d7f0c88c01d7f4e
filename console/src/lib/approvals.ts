import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';

/** A page of approvals: the inbox's and the nav badge's. */
export const APPROVALS_PAGE = 100;

/** How many approvals wait for a decision, for the nav's badge: one page, looked at again every 15 s. */
export function usePendingApprovalCount() {
  return useQuery({
    queryKey: ['approvals', 'pending', 'count'],
    queryFn: () =>
      call(
        api.GET('/api/v1/approvals', {
          params: { query: { status: 'pending', limit: String(APPROVALS_PAGE) } as never },
        }),
      ),
    refetchInterval: 15_000,
    select: (d) => ({ count: d.items.length, more: d.next_cursor !== null }),
  });
}
