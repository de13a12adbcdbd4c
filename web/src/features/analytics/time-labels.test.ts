import { axisLabel, labelSpacing, pointTime, stepName } from './time-labels';

describe('chart time labels', () => {
  test('when labels need 7.3 points of room, then minutes are labelled every 10 and hours every 12', () => {
    expect(labelSpacing(7.3, 60)).toBe(10);
    expect(labelSpacing(7.3, 3600)).toBe(12);
    expect(labelSpacing(7.3, 86_400)).toBe(10);
  });

  test('when the room needed is beyond the round spacings, then it is rounded up to whole points', () => {
    expect(labelSpacing(2000.2, 60)).toBe(2001);
  });

  test('when hours are labelled a day apart, then the axis shows the UTC day only', () => {
    const midnight = Date.parse('2026-03-03T00:00:00Z');
    expect(axisLabel(midnight, 3600, 24)).toBe(
      new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(midnight),
    );
    expect(axisLabel(midnight, 3600, 6)).not.toBe(axisLabel(midnight, 3600, 24));
  });

  test('when a point index is given, then its time is the start plus that many steps', () => {
    expect(pointTime('2026-03-01T20:00:00.000Z', 60, 3)).toBe(Date.parse('2026-03-01T20:03:00Z'));
    expect([60, 3600, 86_400].map(stepName)).toEqual(['minute', 'hour', 'day']);
  });
});
