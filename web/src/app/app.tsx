import { useRef } from 'react';
import { env } from '../config/env';
import './app.css';

// Placeholder landing page. The next issue replaces it with the real SPA (Redux Toolkit, router,
// login modal); until then Commands, Login and Get Started Free are inert.

type Feature = { title: string; description: string };

export const features: readonly Feature[] = [
  {
    title: 'Smart Automation',
    description: 'The bot answers your chat around the clock, so you can focus on the stream.',
  },
  {
    title: 'Unlimited Custom Commands',
    description: 'Create as many $commands as you like, each with its own response.',
  },
  { title: 'Real-time Response', description: 'Kick webhooks deliver every chat message the moment it is sent.' },
  {
    title: 'Built-in Game Commands',
    description: 'Raid bosses, guessing games and a Dota 2 hero lookup, ready to use.',
  },
  { title: 'Secure by Design', description: 'Kick OAuth linking and signed webhooks keep your channel safe.' },
  { title: 'Analytics Dashboard', description: 'Watch live chat and bot status from one dashboard.' },
];

export function App() {
  const featuresRef = useRef<HTMLElement>(null);

  const scrollToTop = () => window.scrollTo({ top: 0, behavior: 'smooth' });
  const scrollToFeatures = () => featuresRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });

  return (
    <div className="page">
      <header className="top-bar">
        <span className="brand">Kickstand</span>
        <nav className="top-bar-nav" aria-label="Main">
          <button type="button" className="button button-ghost" onClick={scrollToTop}>
            Home
          </button>
          <button type="button" className="button button-ghost">
            Commands
          </button>
          <button type="button" className="button button-primary">
            Login
          </button>
        </nav>
      </header>

      <main>
        <section className="hero" aria-labelledby="hero-title">
          <h1 id="hero-title">Kickstand</h1>
          <p className="hero-pitch">
            The chat bot and dashboard for streamers on Kick: commands, games and live chat in one place.
          </p>
          <div className="hero-actions">
            <button type="button" className="button button-primary button-large">
              Get Started Free
            </button>
            <button type="button" className="button button-outline button-large" onClick={scrollToFeatures}>
              Learn More
            </button>
          </div>
        </section>

        <section id="features" ref={featuresRef} className="features" aria-labelledby="features-title">
          <h2 id="features-title">Everything your chat needs</h2>
          <ul className="feature-grid">
            {features.map((feature) => (
              <li key={feature.title} className="feature-card">
                <h3>{feature.title}</h3>
                <p>{feature.description}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>

      <footer className="footer">
        <span>© {new Date().getFullYear()} Kickstand</span>
        <a href={`mailto:${env.feedbackEmail}`}>Suggest a feature</a>
      </footer>
    </div>
  );
}
