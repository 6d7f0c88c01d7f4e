import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TreeNode {
  id: string;
  label: ReactNode;
  /** Text for type-ahead and the accessible name. */
  text: string;
  children?: TreeNode[];
  current?: boolean;
}

interface Flat {
  node: TreeNode;
  level: number;
  parent: string | null;
  setSize: number;
  pos: number;
}

/**
 * The APG treeview pattern: role tree/treeitem/group, aria-level/-setsize/
 * -posinset, aria-expanded, one tab stop (roving tabindex); arrows move and
 * open/close, Home/End jump, * opens all siblings, Enter activates.
 */
export function TreeView({
  label,
  nodes,
  onActivate,
}: {
  label: string;
  nodes: TreeNode[];
  onActivate: (id: string) => void;
}) {
  const [expanded, setExpanded] = useState<Set<string>>(() => {
    const s = new Set<string>();
    const walk = (ns: TreeNode[]) => ns.forEach((n) => n.children?.length && (s.add(n.id), walk(n.children)));
    walk(nodes);
    return s;
  });
  const visible = useMemo(() => {
    const out: Flat[] = [];
    const walk = (ns: TreeNode[], level: number, parent: string | null) =>
      ns.forEach((n, i) => {
        out.push({ node: n, level, parent, setSize: ns.length, pos: i + 1 });
        if (n.children?.length && expanded.has(n.id)) walk(n.children, level + 1, n.id);
      });
    walk(nodes, 1, null);
    return out;
  }, [nodes, expanded]);
  const [focused, setFocused] = useState<string | null>(null);
  const focusId = visible.some((v) => v.node.id === focused)
    ? focused
    : (visible.find((v) => v.node.current)?.node.id ?? visible[0]?.node.id);
  const refs = useRef(new Map<string, HTMLLIElement>());
  const move = (id: string | undefined) => {
    if (!id) return;
    setFocused(id);
    refs.current.get(id)?.focus();
  };

  function onKey(e: KeyboardEvent, f: Flat) {
    const i = visible.findIndex((v) => v.node.id === f.node.id);
    const hasKids = !!f.node.children?.length;
    const open = expanded.has(f.node.id);
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        move(visible[i + 1]?.node.id);
        break;
      case 'ArrowUp':
        move(visible[i - 1]?.node.id);
        break;
      case 'Home':
        move(visible[0]?.node.id);
        break;
      case 'End':
        move(visible[visible.length - 1]?.node.id);
        break;
      case 'ArrowRight':
        if (hasKids && !open) setExpanded(new Set(expanded).add(f.node.id));
        else if (hasKids) move(f.node.children![0]!.id);
        break;
      case 'ArrowLeft':
        if (hasKids && open) {
          const s = new Set(expanded);
          s.delete(f.node.id);
          setExpanded(s);
        } else if (f.parent) move(f.parent);
        break;
      case '*': {
        const s = new Set(expanded);
        visible.filter((v) => v.parent === f.parent && v.node.children?.length).forEach((v) => s.add(v.node.id));
        setExpanded(s);
        break;
      }
      case 'Enter':
      case ' ':
        onActivate(f.node.id);
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  const render = (ns: TreeNode[], level: number, parent: string | null): ReactNode =>
    ns.map((n, i) => {
      const f: Flat = { node: n, level, parent, setSize: ns.length, pos: i + 1 };
      const hasKids = !!n.children?.length;
      const open = expanded.has(n.id);
      return (
        <li
          key={n.id}
          role="treeitem"
          aria-level={level}
          aria-setsize={ns.length}
          aria-posinset={i + 1}
          aria-expanded={hasKids ? open : undefined}
          aria-current={n.current ? 'true' : undefined}
          tabIndex={n.id === focusId ? 0 : -1}
          ref={(el) => {
            if (el) refs.current.set(n.id, el);
            else refs.current.delete(n.id);
          }}
          onKeyDown={(e) => onKey(e, f)}
          onFocus={(e) => {
            if (e.target === e.currentTarget) setFocused(n.id);
          }}
          onClick={(e) => {
            e.stopPropagation();
            move(n.id);
            onActivate(n.id);
          }}
          className="cursor-pointer"
        >
          <div
            id={`tree-${n.id}`}
            className={`tree-row ${n.current ? 'bg-accent-soft font-semibold' : 'hover:bg-surface'}`}
            style={{ paddingLeft: `${(level - 1) * 1.1 + 0.4}rem` }}
          >
            <span aria-hidden="true" className="inline-block w-3 text-muted">
              {hasKids ? (open ? '▾' : '▸') : '·'}
            </span>
            {n.label}
          </div>
          {hasKids && open && <ul role="group">{render(n.children!, level + 1, n.id)}</ul>}
        </li>
      );
    });

  return (
    <ul role="tree" aria-label={label} className="text-sm">
      {render(nodes, 1, null)}
    </ul>
  );
}
