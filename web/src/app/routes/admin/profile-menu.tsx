import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/** Profile Settings, System Settings and Activity Logs are inert (spec §2); Sign Out logs out. */
const inertItems = ['Profile Settings', 'System Settings', 'Activity Logs'] as const;

/** The header's profile menu: a button that opens a small ARIA menu (arrow keys, Escape, click outside). */
export function ProfileMenu({
  username,
  email,
  onSignOut,
}: {
  username: string;
  email?: string;
  onSignOut: () => void;
}) {
  const [isOpen, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const close = (isReturningFocus = true) => {
    setOpen(false);
    if (isReturningFocus) button.current?.focus();
  };

  useEffect(() => {
    if (!isOpen) return;
    items()[0]?.focus();
    const onPointer = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [isOpen]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      list[(index + step + list.length) % list.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      (event.key === 'Home' ? list[0] : list[list.length - 1])?.focus();
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div className="profile-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="profile-menu-button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        aria-label={`Profile menu for ${username}`}
        onClick={() => setOpen((open) => !open)}
      >
        <span className="admin-avatar" aria-hidden="true">
          {username.slice(0, 1).toUpperCase()}
        </span>
        <span className="profile-menu-name">{username}</span>
      </button>
      {isOpen && (
        <div
          className="profile-menu-list"
          role="menu"
          id={menuId}
          aria-label="Profile"
          ref={menu}
          onKeyDown={onKeyDown}
        >
          <div className="profile-menu-identity" role="presentation">
            <strong>{username}</strong>
            {email && <span className="muted small">{email}</span>}
          </div>
          {inertItems.map((label) => (
            <button key={label} type="button" role="menuitem" tabIndex={-1} onClick={() => close()}>
              {label}
            </button>
          ))}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="profile-menu-sign-out"
            onClick={() => {
              setOpen(false);
              onSignOut();
            }}
          >
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}
