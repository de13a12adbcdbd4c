import { singleMachineConfigSchema } from './config';

const maxUnfinished = (value: string | undefined) => {
  const parsed = singleMachineConfigSchema.safeParse(value === undefined ? {} : { FRONT_DOOR_MAX_UNFINISHED: value });
  return parsed.success ? parsed.data.FRONT_DOOR_MAX_UNFINISHED : parsed.error.issues.map((issue) => issue.message);
};

describe('FRONT_DOOR_MAX_UNFINISHED', () => {
  test('when it is unset or empty, then 5000', () => {
    expect([maxUnfinished(undefined), maxUnfinished('')]).toEqual([5000, 5000]);
  });

  test('when it is a whole number from 1 to 1000000, then that number', () => {
    expect([maxUnfinished('1'), maxUnfinished('20000'), maxUnfinished('1000000')]).toEqual([1, 20000, 1_000_000]);
  });

  test('when it is 0, negative, fractional, too large or not a number, then the start is refused with the allowed range', () => {
    const refusal = ['a whole number of deliveries from 1 to 1000000'];
    expect(['0', '-5', '2.5', '1000001', 'lots'].map(maxUnfinished)).toEqual([
      refusal,
      refusal,
      refusal,
      refusal,
      refusal,
    ]);
  });
});
