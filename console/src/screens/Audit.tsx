import { PageHeader } from '../components/ui';

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function Audit(_props: { search?: Record<string, string | undefined> }) {
  return <PageHeader title="Audit" />;
}
