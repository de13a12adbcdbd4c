import { useEffect, useRef, useState } from 'react';

/**
 * The width in CSS pixels of the element the ref is put on, followed as it changes, so a chart is
 * drawn at its real size (text stays 11 px at 360 px wide instead of shrinking with a viewBox).
 * Without ResizeObserver (tests), the fallback width.
 */
export function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
