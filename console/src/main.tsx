import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setUnauthorizedHandler } from './api/client';
import { Layout } from './components/Layout';
import { AnnouncerProvider, Loading, ProblemView } from './components/ui';
import './index.css';
import { PrefsProvider } from './lib/prefs';
import { pickStrings } from './lib/search';
import { SessionProvider, useSessionQuery } from './lib/session';
import { lazyScreen } from './screens/lazy';
import { INVOCATION_FILTERS, Invocations } from './screens/Invocations';
import { SignIn } from './screens/SignIn';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (n, e) => n < 1 && !(e && 'status' in e && Number(e.status) < 500), refetchOnWindowFocus: false },
  },
});
setUnauthorizedHandler(() => queryClient.setQueryData(['session'], null));

function Root() {
  const s = useSessionQuery();
  if (s.isLoading) return <Loading label="Loading the console" />;
  if (s.error) return <ProblemView error={s.error} retry={() => void s.refetch()} />;
  if (!s.data) return <SignIn />;
  return (
    <SessionProvider session={s.data}>
      <Layout />
    </SessionProvider>
  );
}

const rootRoute = createRootRoute({ component: Root });
const strings = (keys: readonly string[]) => (s: Record<string, unknown>) => pickStrings(s, keys);

const Overview = lazyScreen<{ search: Record<string, string | undefined> }>(
  () => import('./screens/Overview'),
  'Overview',
);
const Reviews = lazyScreen<{ search: Record<string, string | undefined> }>(
  () => import('./screens/Reviews'),
  'Reviews',
);
const Approvals = lazyScreen<{ search: Record<string, string | undefined> }>(
  () => import('./screens/Approvals'),
  'Approvals',
);
const Agents = lazyScreen<{ search: Record<string, string | undefined> }>(() => import('./screens/Agents'), 'Agents');
const Rogue = lazyScreen<{ search: Record<string, string | undefined> }>(() => import('./screens/Rogue'), 'Rogue');
const Audit = lazyScreen<{ search: Record<string, string | undefined> }>(() => import('./screens/Audit'), 'Audit');
const Reports = lazyScreen(() => import('./screens/Reports'), 'Reports');
const Settings = lazyScreen(() => import('./screens/Settings'), 'Settings');
const Destinations = lazyScreen<{ search: Record<string, string | undefined> }>(
  () => import('./screens/Destinations'),
  'Destinations',
);

const overviewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  validateSearch: strings(['range']),
  component: function OverviewRoute() {
    return <Overview search={overviewRoute.useSearch()} />;
  },
});
const invocationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invocations',
  validateSearch: strings(INVOCATION_FILTERS),
  component: function InvocationsRoute() {
    return <Invocations search={invocationsRoute.useSearch()} />;
  },
});
const reviewsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reviews',
  validateSearch: strings(['status', 'cursor', 'selected']),
  component: function ReviewsRoute() {
    return <Reviews search={reviewsRoute.useSearch()} />;
  },
});
const approvalsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/approvals',
  validateSearch: strings(['status', 'cursor', 'selected']),
  component: function ApprovalsRoute() {
    return <Approvals search={approvalsRoute.useSearch()} />;
  },
});
const agentsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/agents',
  validateSearch: strings(['cursor', 'selected']),
  component: function AgentsRoute() {
    return <Agents search={agentsRoute.useSearch()} />;
  },
});
const rogueRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/rogue',
  validateSearch: strings(['agent_key', 'event_type', 'since', 'until', 'cursor']),
  component: function RogueRoute() {
    return <Rogue search={rogueRoute.useSearch()} />;
  },
});
const auditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/audit',
  validateSearch: strings(['start']),
  component: function AuditRoute() {
    return <Audit search={auditRoute.useSearch()} />;
  },
});
const destinationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/settings/destinations',
  validateSearch: strings(['selected']),
  component: function DestinationsRoute() {
    return <Destinations search={destinationsRoute.useSearch()} />;
  },
});
const routeTree = rootRoute.addChildren([
  overviewRoute,
  invocationsRoute,
  reviewsRoute,
  approvalsRoute,
  agentsRoute,
  rogueRoute,
  auditRoute,
  createRoute({ getParentRoute: () => rootRoute, path: '/reports', component: () => <Reports /> }),
  createRoute({ getParentRoute: () => rootRoute, path: '/settings', component: () => <Settings /> }),
  destinationsRoute,
]);

// Plain query strings (?verdict=deny&cursor=…), not JSON-encoded values: URLs
// people read, edit and share.
const router = createRouter({
  routeTree,
  basepath: '/console',
  defaultPreload: false,
  parseSearch: (str) => Object.fromEntries(new URLSearchParams(str)),
  stringifySearch: (search) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(search)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
    const out = p.toString();
    return out ? `?${out}` : '';
  },
});
declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <PrefsProvider>
        <AnnouncerProvider>
          <RouterProvider router={router} />
        </AnnouncerProvider>
      </PrefsProvider>
    </QueryClientProvider>
  </StrictMode>,
);
