import { useRef } from 'react';
import { Icon, type IconName } from '../../components/ui/icon';
import { productName } from '../../config/constants';
import { usePageTitle } from '../../lib/page-title';
import { usePublicOutlet } from './public';

type Feature = { icon: IconName; title: string; description: string };

/** The six feature cards (spec §1). */
export const features: readonly Feature[] = [
  {
    icon: 'robot',
    title: 'Smart Automation',
    description: 'The bot answers your chat around the clock, so you can focus on the stream.',
  },
  {
    icon: 'terminal',
    title: 'Unlimited Custom Commands',
    description: 'Create as many $commands as you like, each with its own response.',
  },
  {
    icon: 'zap',
    title: 'Real-time Response',
    description: 'Kick webhooks deliver every chat message the moment it is sent.',
  },
  {
    icon: 'gamepad',
    title: 'Built-in Game Commands',
    description: 'Raid bosses, guessing games and a Dota 2 hero lookup, ready to use.',
  },
  {
    icon: 'lock',
    title: 'Secure by Design',
    description: 'Kick OAuth linking and signed webhooks keep your channel safe.',
  },
  {
    icon: 'chart',
    title: 'Analytics Dashboard',
    description: 'Watch live chat and bot status from one dashboard.',
  },
];

export function LandingPage() {
  const { openLogin } = usePublicOutlet();
  usePageTitle();
  const featuresRef = useRef<HTMLElement>(null);
  const scrollToFeatures = () => featuresRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });

  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <p className="hero-kicker">The chat bot for Kick streamers</p>
        <h1 id="hero-title">{productName}</h1>
        <p className="hero-pitch">
          Commands, chat games and live chat in one dashboard. Link your Kick channel, start the bot and let it handle
          your chat while you stream.
        </p>
        <div className="hero-actions">
          <button type="button" className="button button-primary button-large" onClick={openLogin}>
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
              <Icon name={feature.icon} className="feature-icon" />
              <h3>{feature.title}</h3>
              <p>{feature.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="cta" aria-labelledby="cta-title">
        <h2 id="cta-title">Ready to level up your stream?</h2>
        <p className="muted">Set up {productName} in minutes. It is free.</p>
        <button type="button" className="button button-primary button-large" onClick={openLogin}>
          Create Your Free Account
        </button>
      </section>
    </>
  );
}
