import { randomBytes } from 'node:crypto';
import type { Response } from 'express';

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Everything that goes into a page passes through here: names, scopes, URLs, messages. */
export const escapeHtml = (value: string | number): string =>
  String(value).replace(/[&<>"']/g, (c) => htmlEscapes[c] ?? c);

/**
 * A tagged template that escapes every interpolated value unless it is already `SafeHtml`
 * (built by this same tag), so a page cannot forget to escape a value.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type HtmlValue = SafeHtml | string | number | readonly (SafeHtml | string | number)[];

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts
      .map((part: SafeHtml | string | number) => (part instanceof SafeHtml ? part.value : escapeHtml(part)))
      .join('');
    out += strings[index + 1] ?? '';
  });
  return new SafeHtml(out);
}

const styles = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; background: #0b0e0f; color: #e8e8e8; }
  main { max-width: 920px; margin: 0 auto; padding: 24px; }
  a { color: #53fc18; }
  h1 { font-size: 22px; margin: 0 0 16px; } h2 { font-size: 17px; margin: 24px 0 8px; }
  .card { background: #191b1f; border-radius: 8px; padding: 16px; margin: 12px 0; }
  label { display: block; margin: 8px 0 4px; color: #b0b0b0; }
  input[type=text], select { width: 100%; box-sizing: border-box; padding: 8px; border-radius: 6px; border: 1px solid #333; background: #24272c; color: #eee; }
  button { padding: 8px 16px; border-radius: 6px; border: 0; font-weight: 600; cursor: pointer; margin: 4px 4px 4px 0; }
  .primary { background: #53fc18; color: #000; } .secondary { background: #333; color: #eee; }
  .muted { color: #8a8a8a; font-size: 13px; } .error { color: #ff6b6b; }
  table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: 4px 8px; border-bottom: 1px solid #2a2a2a; }
  code { background: #24272c; padding: 1px 4px; border-radius: 4px; }
  .scopes label { display: flex; gap: 8px; align-items: baseline; color: #ddd; }
  .row { display: flex; gap: 12px; flex-wrap: wrap; } .row > * { flex: 1; min-width: 180px; }
  #log { height: 420px; overflow-y: auto; background: #101214; border-radius: 6px; padding: 8px; }
  .line { padding: 2px 0; } .badge { font-size: 11px; padding: 0 4px; border-radius: 3px; background: #333; margin-right: 3px; }
  .reply { color: #8a8a8a; font-size: 12px; } .deleted { text-decoration: line-through; color: #666; }
`;

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Inline script; runs under a per-response nonce (no external assets, no build step). */
  script?: string;
  /** Origins a form on the page may end up at (the authorize page redirects to the app). */
  formTargets?: readonly string[];
  status?: number;
}

/**
 * Sends a complete page. The CSP replaces helmet's default for pages: the inline script runs only
 * with this response's nonce, and a form post may follow its redirect to the app's origin (browsers
 * check `form-action` on redirects too).
 */
export function sendPage(res: Response, options: PageOptions): void {
  const nonce = randomBytes(16).toString('base64');
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(' ');
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      "style-src 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      `form-action ${formAction}`,
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  // the nonce must not be captured by a shared cache
  res.setHeader('Cache-Control', 'no-store');
  const script = options.script
    ? html`<script nonce="${nonce}">
        ${new SafeHtml(options.script)};
      </script>`
    : '';
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title}</title>
        <style>
          ${new SafeHtml(styles)}
        </style>
      </head>
      <body>
        <main>${options.body}</main>
        ${script}
      </body>
    </html>`;
  res
    .status(options.status ?? 200)
    .type('html')
    .send(page.value);
}
