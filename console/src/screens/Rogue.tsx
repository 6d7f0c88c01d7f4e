import { PageHeader } from '../components/ui';

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function Rogue(_props: { search?: Record<string, string | undefined> }) {
  return <PageHeader title="Rogue" />;
}
