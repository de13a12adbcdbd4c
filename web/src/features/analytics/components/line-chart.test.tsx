import { render, screen } from '@testing-library/react';
import { LineChart, tickIntervals } from './line-chart';

const times = [0, 1, 2, 3].map((index) => Date.parse('2026-03-01T20:00:00Z') + index * 60_000);

describe('LineChart', () => {
  test('when the round top is 5, 10, 20, 1 or 2, then the ticks split it evenly', () => {
    expect([5, 10, 20, 1, 2].map(tickIntervals)).toEqual([5, 5, 4, 1, 2]);
  });

  test('when two series are drawn, then each is one line, its y axis runs 0–2 by 1 and the legend names them', () => {
    const { container } = render(
      <LineChart
        label="Follows and subscriptions"
        summary="3 follows, 1 subscription"
        series={[
          { name: 'Follows', values: [0, 2, 1, 0], tone: 'info' },
          { name: 'Subscriptions', values: [1, 0, 0, 0], tone: 'success' },
        ]}
        times={times}
        stepSeconds={60}
      />,
    );
    expect(
      screen.getByRole('img', { name: 'Follows and subscriptions: 3 follows, 1 subscription' }),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('chart-line').map((line) => line.dataset.series)).toEqual([
      'Follows',
      'Subscriptions',
    ]);
    const ticks = [...container.querySelectorAll('.line-chart-grid text')].map((tick) => tick.textContent);
    expect(ticks).toEqual(['0', '1', '2']);
    expect(container.querySelectorAll('.line-chart-legend li')).toHaveLength(2);
  });

  test('when one point is drawn, then it is a dot, and a peak marker tells its value', () => {
    const { container } = render(
      <LineChart
        label="Chat messages per minute"
        summary="7 messages"
        series={[{ name: 'Messages', values: [7], tone: 'accent' }]}
        times={times.slice(0, 1)}
        stepSeconds={60}
        markers={[0]}
      />,
    );
    expect(container.querySelectorAll('.line-chart-dot')).toHaveLength(1);
    expect(screen.getByTestId('chart-marker')).toHaveTextContent(/: 7 messages$/);
  });
});
