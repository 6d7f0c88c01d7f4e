import { lazy, Suspense, type ComponentType } from 'react';
import { Loading } from '../components/ui';

/** A screen loaded on first visit: the first load carries only the shell and the explorer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyScreen<P extends object>(load: () => Promise<Record<string, any>>, name: string) {
  const C = lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));
  return function Screen(props: P) {
    return (
      <Suspense fallback={<Loading label={`Loading ${name}`} />}>
        <C {...props} />
      </Suspense>
    );
  };
}
