import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { can, type Role } from './roles';

// Rule ids explained in words: the workspace policy's own descriptions when
// the role may read the policy, else the built-in rules' wording.
const BUILT_IN: Record<string, string> = {
  'secret-in-tool-input': 'A credential was passed to a tool.',
  'secret-in-content': 'A credential appears in a prompt, response, context or tool output.',
  'sensitive-pii-in-tool-input': 'Payment, bank or national-id data was passed to a tool.',
  'prompt-injection-enforced': 'Injected instructions reached an agent that asks before acting.',
  'prompt-injection': 'Injected instructions reached an agent.',
  tool_out_of_scope: 'The agent called a tool outside the scope set for it.',
};

export function useReasonText(role: Role) {
  const policy = useQuery({
    queryKey: ['policy'],
    queryFn: () => call(api.GET('/api/v1/policy')),
    enabled: can.readPolicy(role),
    staleTime: 60_000,
  });
  return (id: string): string => {
    const rule = policy.data?.rules.find((r) => r.id === id);
    if (rule?.description) return rule.description;
    if (BUILT_IN[id]) return BUILT_IN[id];
    const words = id.replace(/[-_.]+/g, ' ').trim();
    return `Policy rule “${words}” fired.`;
  };
}
