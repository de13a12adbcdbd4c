// One jest run for the whole monorepo: a project per workspace. Tests import workspace packages
// from their TypeScript sources (moduleNameMapper), so `npm test` needs no build first.
const path = require('node:path');

const root = __dirname;
const services = ['auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime'];

const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const moduleNameMapper = {
  '^@kickstand/platform/(.*)$': `${root}/packages/platform/src/$1`,
  '^@kickstand/proto$': `${root}/proto/src`,
  '^@kickstand/chat-language$': `${root}/packages/chat-language/src`,
  '^@kickstand/api-contract$': `${root}/packages/api-contract/src`,
  '^@kickstand/gateway$': `${root}/gateway/src/service.ts`,
  '^@kickstand/kick-link/front-door$': `${root}/services/kick-link/src/front-door.ts`,
  '^@kickstand/kick-sandbox$': `${root}/tools/kick-sandbox/src/service.ts`,
  [`^@kickstand/(${services.join('|')})$`]: `${root}/services/$1/src/service.ts`,
};

// ES-module-only dependencies: SWC turns them into CommonJS for jest like our own sources (the
// compiled services reach them with a dynamic import).
const esmOnly = ['p-retry', 'is-network-error'];
const transformIgnorePatterns = [`/node_modules/(?!(${esmOnly.join('|')})/)`];

function nodeProject(dir) {
  return {
    displayName: path.basename(dir),
    rootDir: path.join(root, dir),
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.test.ts'],
    transform: { '^.+\\.(t|j)sx?$': swcTransform },
    transformIgnorePatterns,
    moduleNameMapper,
  };
}

module.exports = {
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/scripts/jest-file-counts-reporter.js'],
  projects: [
    nodeProject('proto'),
    nodeProject('packages/platform'),
    nodeProject('packages/chat-language'),
    nodeProject('apps/single-machine'),
    nodeProject('packages/api-contract'),
    nodeProject('gateway'),
    ...services.map((s) => nodeProject(`services/${s}`)),
    nodeProject('tools/kick-sandbox'),
    nodeProject('tools/bench'),
    // the scripts' own modules (plain CommonJS): *.test.js next to them
    { ...nodeProject('scripts'), displayName: 'scripts', testMatch: ['<rootDir>/*.test.js'] },
    // Whole-system tests over the compiled processes (distributed mode); *.int.test.ts only.
    { ...nodeProject('tests/distributed'), displayName: 'distributed', testMatch: ['<rootDir>/*.test.ts'] },
    {
      displayName: 'web',
      rootDir: path.join(root, 'web'),
      // jsdom with Node's fetch, Request, Response, streams and BroadcastChannel: what MSW needs
      testEnvironment: '<rootDir>/src/testing/jsdom-environment.cjs',
      testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
      transform: { '^.+\\.(t|j)sx?$': swcTransform, '^.+\\.mjs$': swcTransform },
      // MSW's dependencies published as ES modules only: compiled like the sources
      transformIgnorePatterns: [
        '/node_modules/(?!(msw|@mswjs|@open-draft|rettime|until-async|outvariant|strict-event-emitter|headers-polyfill|is-node-process)/)',
      ],
      moduleNameMapper: {
        ...moduleNameMapper,
        '^.+/config/env$': '<rootDir>/src/config/env.jest.ts',
        '\\.(css|svg|png)$': '<rootDir>/src/testing/file-stub.ts',
      },
      setupFilesAfterEnv: ['<rootDir>/src/testing/setup-tests.ts'],
    },
  ],
};
