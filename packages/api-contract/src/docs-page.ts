import type { OpenApiDocument, OpenApiOperation } from './openapi';

// GET /api/docs: the OpenAPI document as one self-contained page (no script, no CDN: the product
// runs offline), a section per route with its parameters, body and replies as JSON Schema.

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const json = (value: unknown): string => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

function schemaBlock(title: string, value: unknown): string {
  return `<details><summary>${escapeHtml(title)}</summary>${json(value)}</details>`;
}

function operationHtml(method: string, path: string, operation: OpenApiOperation): string {
  const parts: string[] = [];
  for (const parameter of operation.parameters) {
    const required = parameter.required ? ', required' : '';
    parts.push(schemaBlock(`${parameter.in} parameter ${parameter.name}${required}`, parameter.schema));
  }
  if (operation.requestBody)
    parts.push(schemaBlock('request body', operation.requestBody.content['application/json'].schema));
  for (const [status, response] of Object.entries(operation.responses)) {
    const content = response.content ? Object.entries(response.content)[0] : undefined;
    const title = `${status} ${response.description}`;
    parts.push(
      content
        ? schemaBlock(`${title} (${content[0]})`, content[1].schema)
        : `<p class="plain">${escapeHtml(title)}</p>`,
    );
  }
  const id = operation.operationId;
  return `<section id="${escapeHtml(id)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> <span class="access">${escapeHtml(operation['x-access'])}</span></h3>
<p>${escapeHtml(operation.summary)}</p>${operation.description ? `<p>${escapeHtml(operation.description)}</p>` : ''}
${parts.join('\n')}
</section>`;
}

/** The readable API page. */
export function renderDocsPage(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation: operation! })),
  );
  const groups = new Map<string, typeof operations>();
  for (const entry of operations) {
    const tag = entry.operation.tags[0] ?? 'other';
    groups.set(tag, [...(groups.get(tag) ?? []), entry]);
  }
  const index = operations
    .map(
      ({ path, method, operation }) =>
        `<li><a href="#${escapeHtml(operation.operationId)}"><span class="method ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</a></li>`,
    )
    .join('\n');
  const sections = [...groups]
    .map(
      ([tag, entries]) =>
        `<h2>${escapeHtml(tag)}</h2>\n${entries.map(({ path, method, operation }) => operationHtml(method, path, operation)).join('\n')}`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 1.5rem; color: #1d1d1f; }
h2 { border-bottom: 1px solid #ddd; margin-top: 2.5rem; }
section { border: 1px solid #e3e3e3; border-radius: 6px; padding: 0.25rem 1rem 0.75rem; margin: 1rem 0; }
.method { display: inline-block; min-width: 4.2rem; text-align: center; border-radius: 4px; color: #fff; font-size: 0.8rem; padding: 0 0.3rem; }
.get { background: #2f7d32; } .post { background: #1565c0; } .put { background: #8e44ad; } .patch { background: #b26a00; } .delete { background: #c62828; }
.access { font-size: 0.8rem; color: #666; border: 1px solid #ccc; border-radius: 4px; padding: 0 0.3rem; }
pre { background: #f6f8fa; padding: 0.5rem; overflow-x: auto; font-size: 0.8rem; }
summary { cursor: pointer; } .plain { margin: 0.2rem 0; }
ul { columns: 2; font-size: 0.9rem; } a { text-decoration: none; }
</style>
</head>
<body>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${escapeHtml(document.info.description)}</p>
<p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
<ul>
${index}
</ul>
${sections}
</body>
</html>
`;
}
