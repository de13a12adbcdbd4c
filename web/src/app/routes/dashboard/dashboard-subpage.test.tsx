import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { DashboardSubpage } from './dashboard-subpage';

describe('DashboardSubpage', () => {
  test('when a sub-page shows, then it has its heading, the tab title, two ways back to the dashboard and its sections in main', () => {
    renderWithProviders(
      <DashboardSubpage title="Analytics" heading="Stream analytics">
        <section aria-label="Viewers" />
      </DashboardSubpage>,
    );

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Stream analytics');
    expect(document.title).toBe('Analytics · Kickstand');
    expect(screen.getByRole('link', { name: 'Kickstand' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('region', { name: 'Viewers' }));
  });

  test('when no heading is given, then the title is the heading', () => {
    renderWithProviders(
      <DashboardSubpage title="Team">
        <p>sections</p>
      </DashboardSubpage>,
    );

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Team');
  });
});
