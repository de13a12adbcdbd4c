// A fixture for eslint-rules.test.js: second.ts and first.ts import each other.
import { first } from './first';

export const second = (): string => 'second';
export const again = (): string => first();
