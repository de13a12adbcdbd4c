// Turns Kubernetes' OpenAPI v2 document (api/openapi-spec/swagger.json of the k8s.io/kubernetes Go
// module, fetched through the Go module proxy: no other download) into the JSON schemas kubeconform
// reads, as openapi2jsonschema does: `_definitions.json` plus one `<kind>[-<group>]-<version>.json`
// per kind. Strict: an object with declared properties takes no others (a misspelled field fails).
// Usage: node scripts/k8s-json-schemas.js <swagger.json> <out-dir>
const fs = require('node:fs');
const path = require('node:path');

/** Kubernetes' own stand-ins for "a string or a number", as the API server accepts them. */
const stringOrNumber = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': [{ type: 'string' }, { type: 'integer' }],
  'io.k8s.apimachinery.pkg.api.resource.Quantity': [{ type: 'string' }, { type: 'number' }],
};

/** One schema node made strict and nullable, its references pointed at `_definitions.json`. */
function convert(node) {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string')
      out.$ref = value.replace('#/definitions/', '_definitions.json#/definitions/');
    else out[key] = convert(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  // kustomize and kubectl write `null` for empty fields (creationTimestamp: null): the server accepts it
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

function convertDefinition(name, definition) {
  const alternatives = stringOrNumber[name];
  if (alternatives) return { description: definition.description, oneOf: alternatives };
  return convert(definition);
}

/** kubeconform's file name for a kind: `deployment-apps-v1`, `service-v1`, `ingress-networking-v1`. */
function fileNameOf({ group, version, kind }) {
  const groupPart = group === '' ? '' : `-${group.split('.')[0]}`;
  return `${kind.toLowerCase()}${groupPart}-${version}.json`;
}

function writeSchemas(swaggerFile, outDir) {
  const { definitions } = JSON.parse(fs.readFileSync(swaggerFile, 'utf8'));
  fs.mkdirSync(outDir, { recursive: true });
  const converted = {};
  for (const [name, definition] of Object.entries(definitions)) converted[name] = convertDefinition(name, definition);
  fs.writeFileSync(path.join(outDir, '_definitions.json'), JSON.stringify({ definitions: converted }));
  let count = 0;
  for (const [name, definition] of Object.entries(definitions)) {
    for (const gvk of definition['x-kubernetes-group-version-kind'] ?? []) {
      const schema = { ...converted[name], $schema: 'http://json-schema.org/schema#' };
      fs.writeFileSync(path.join(outDir, fileNameOf(gvk)), JSON.stringify(schema));
      count += 1;
    }
  }
  return count;
}

module.exports = { convert, fileNameOf, writeSchemas };

if (require.main === module) {
  const [swaggerFile, outDir] = process.argv.slice(2);
  if (!swaggerFile || !outDir) {
    console.error('usage: node scripts/k8s-json-schemas.js <swagger.json> <out-dir>');
    process.exit(2);
  }
  console.log(`k8s-json-schemas: ${writeSchemas(swaggerFile, outDir)} kinds written to ${outDir}`);
}
