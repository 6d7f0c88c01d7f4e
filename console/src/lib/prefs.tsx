import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

// Display preferences kept in this browser: the theme and the time zone.

export type Theme = 'light' | 'dark';
export interface Prefs {
  theme: Theme;
  setTheme(t: Theme): void;
  /** 'UTC' or an IANA zone (the browser's by default). */
  zone: string;
  setZone(z: string): void;
  localZone: string;
}

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function initialTheme(): Theme {
  const saved = localStorage.getItem('al.theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const Ctx = createContext<Prefs | null>(null);

export function PrefsProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(initialTheme);
  const [zone, setZoneState] = useState<string>(() => localStorage.getItem('al.zone') ?? localZone);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const value = useMemo<Prefs>(
    () => ({
      theme,
      setTheme(t) {
        localStorage.setItem('al.theme', t);
        setThemeState(t);
      },
      zone,
      setZone(z) {
        localStorage.setItem('al.zone', z);
        setZoneState(z);
      },
      localZone,
    }),
    [theme, zone],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function usePrefs(): Prefs {
  const p = useContext(Ctx);
  if (!p) throw new Error('PrefsProvider missing');
  return p;
}
