import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
}

interface TabsProps<K extends string> {
  label: string;
  items: TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  className?: string;
  /** The selected tab's panel. */
  children: ReactNode;
  panelClassName?: string;
}

/**
 * The WAI-ARIA tab pattern: one tab stop (roving tabindex), ←/→ and Home/End move and select, each tab
 * controls the one panel, which is labelled by its tab.
 */
export function Tabs<K extends string>(props: TabsProps<K>) {
  const { label, items, selected, onSelect, className, children, panelClassName } = props;
  const base = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const tabId = (key: K) => `${base}-tab-${key}`;
  const panelId = `${base}-panel`;

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = items.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + items.length) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const item = items[target];
    if (!item) return;
    onSelect(item.key);
    refs.current[target]?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} className={className}>
        {items.map((item, index) => (
          <button
            key={item.key}
            ref={(el) => {
              refs.current[index] = el;
            }}
            id={tabId(item.key)}
            type="button"
            role="tab"
            aria-selected={item.key === selected}
            aria-controls={panelId}
            tabIndex={item.key === selected ? 0 : -1}
            onClick={() => onSelect(item.key)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} className={panelClassName}>
        {children}
      </div>
    </>
  );
}
