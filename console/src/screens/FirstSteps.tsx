import { CopyButton, Empty } from '../components/ui';

/** The empty state of a workspace with no events yet: how to send the first one. */
export function FirstSteps() {
  const origin = window.location.origin;
  const cmd = `curl -s ${origin}/api/v1/admin/agents/events/invocation \\
  -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
  -d '{"agent_key":"billing-bot","tool_name":"search","prompt":"hello"}'`;
  return (
    <Empty title="No invocations yet">
      <p>Send a first event with an API token (Settings → API tokens):</p>
      <pre
        tabIndex={0}
        className="mono mx-auto mt-2 max-w-2xl overflow-x-auto rounded border border-line bg-surface p-3 text-left text-fg"
      >
        {cmd}
      </pre>
      <div className="mt-2">
        <CopyButton text={cmd} label="Copy the command" />
      </div>
    </Empty>
  );
}
