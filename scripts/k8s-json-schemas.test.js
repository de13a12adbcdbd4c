const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { describe, expect, test } = require('@jest/globals');
const { fileNameOf, writeSchemas } = require('./k8s-json-schemas');

describe('k8s-json-schemas', () => {
  test('when a kind has a group, then its file is named as kubeconform looks for it', () => {
    expect(fileNameOf({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe('deployment-apps-v1.json');
    expect(fileNameOf({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' })).toBe(
      'ingress-networking-v1.json',
    );
    expect(fileNameOf({ group: '', version: 'v1', kind: 'Service' })).toBe('service-v1.json');
  });

  test('when the OpenAPI document is converted, then objects are strict, types nullable, refs point at _definitions.json', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-schemas-'));
    const swagger = {
      definitions: {
        'io.k8s.api.core.v1.Thing': {
          properties: {
            port: { $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
            name: { type: 'string' },
          },
          'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Thing' }],
        },
        'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
          description: 'd',
          type: 'string',
          format: 'int-or-string',
        },
      },
    };
    fs.writeFileSync(path.join(dir, 'swagger.json'), JSON.stringify(swagger));

    expect(writeSchemas(path.join(dir, 'swagger.json'), path.join(dir, 'out'))).toBe(1);

    expect(JSON.parse(fs.readFileSync(path.join(dir, 'out', 'thing-v1.json'), 'utf8'))).toEqual({
      $schema: 'http://json-schema.org/schema#',
      additionalProperties: false,
      properties: {
        port: { $ref: '_definitions.json#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
        name: { type: ['string', 'null'] },
      },
      'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Thing' }],
    });
    const definitions = JSON.parse(fs.readFileSync(path.join(dir, 'out', '_definitions.json'), 'utf8')).definitions;
    expect(definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({
      description: 'd',
      oneOf: [{ type: 'string' }, { type: 'integer' }],
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
