export { seededRandom } from './seeded-random';
