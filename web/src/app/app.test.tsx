import { fireEvent, render, screen, within } from '@testing-library/react';
import { App } from './app';

describe('landing page', () => {
  test('when the landing page renders, then it shows the hero, the six feature cards and Get Started Free', () => {
    render(<App />);

    expect(screen.getByRole('heading', { level: 1, name: 'Kickstand' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get Started Free' })).toBeInTheDocument();
    for (const name of ['Home', 'Commands', 'Login']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }

    const features = screen.getByRole('region', { name: 'Everything your chat needs' });
    const cardTitles = within(features)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(cardTitles).toEqual([
      'Smart Automation',
      'Unlimited Custom Commands',
      'Real-time Response',
      'Built-in Game Commands',
      'Secure by Design',
      'Analytics Dashboard',
    ]);
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Kickstand');
  });

  test('when Learn More is clicked, then the features section is scrolled into view', () => {
    // jsdom has no layout, so it does not implement scrollIntoView.
    const scrollIntoView = jest.fn();
    Object.defineProperty(Element.prototype, 'scrollIntoView', {
      configurable: true,
      writable: true,
      value: scrollIntoView,
    });
    try {
      render(<App />);

      fireEvent.click(screen.getByRole('button', { name: 'Learn More' }));

      expect(scrollIntoView).toHaveBeenCalledTimes(1);
      expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('features'));
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });
});
