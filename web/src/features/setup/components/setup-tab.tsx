import { useState, type ReactNode } from 'react';
import { Icon, type IconName } from '../../../components/ui/icon';
import { Tabs } from '../../../components/ui/tabs';
import { env } from '../../../config/env';
import { commandCooldownMs, commandPrefix } from '../../../config/constants';

type SetupSection = 'overview' | 'settings' | 'features';

const sections = [
  { id: 'overview', label: 'Overview' },
  { id: 'settings', label: 'Settings' },
  { id: 'features', label: 'Features' },
] as const;

const infoCards: { icon: IconName; title: string; text: string }[] = [
  { icon: 'zap', title: 'Instant response', text: 'Commands are answered the moment they reach your chat.' },
  { icon: 'lock', title: 'Secure OAuth', text: 'Your Kick account is linked through Kick’s own authorization page.' },
  { icon: 'sparkles', title: 'Smart AI powered', text: 'The bot understands commands, variables and chat games.' },
];

const gettingStarted = [
  'Link your Kick account on the Kick Account tab.',
  'Start the bot with Start Bot above.',
  'Add your own commands on the Commands tab.',
  'Watch your chat and the bot’s replies on the Live Chat tab.',
];

const features = [
  { title: 'Interactive Commands', text: 'Custom $commands with variables such as {user}.', isActive: true },
  { title: 'Game Integration', text: 'Raid boss and guess my balance games in chat.', isActive: true },
  { title: 'Dota 2 Integration', text: 'MMR and hero info with $mmr, $rank and $hero.', isActive: true },
  { title: 'Real-time Analytics', text: 'Command usage and chat activity over time.', isActive: false },
];

function Overview() {
  return (
    <div className="setup-section">
      <ul className="info-grid">
        {infoCards.map((card) => (
          <li key={card.title} className="card info-card">
            <Icon name={card.icon} className="feature-icon" />
            <h3>{card.title}</h3>
            <p className="muted">{card.text}</p>
          </li>
        ))}
      </ul>
      <section className="card" aria-labelledby="getting-started-title">
        <h3 id="getting-started-title" className="section-title">
          Getting started
        </h3>
        <ol className="steps">
          {gettingStarted.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
      <section className="card" aria-labelledby="suggest-title">
        <h3 id="suggest-title" className="section-title">
          Suggest a feature
        </h3>
        <p className="muted">
          Missing something? Write to <a href={`mailto:${env.feedbackEmail}`}>{env.feedbackEmail}</a>.
        </p>
      </section>
    </div>
  );
}

function Settings({ extra }: { extra?: ReactNode }) {
  return (
    <div className="setup-section">
      <div className="settings-grid">
        <div className="card setting">
          <span className="field-label">Command prefix</span>
          <input value={commandPrefix} readOnly aria-label="Command prefix" className="mono" />
        </div>
        <div className="card setting">
          <span className="field-label">Cooldown</span>
          <input value={`${commandCooldownMs / 1000}s`} readOnly aria-label="Cooldown" />
        </div>
      </div>
      <div className="settings-grid">
        <section className="card" aria-labelledby="permissions-title">
          <h3 id="permissions-title" className="section-title">
            Command Permissions
          </h3>
          <ul className="tile-list">
            <li>
              <strong>Broadcaster Only</strong>
              <span className="muted small">Starting games and ending guess my balance.</span>
            </li>
            <li>
              <strong>Viewer Commands</strong>
              <span className="muted small">Custom commands, $attack, $gmb, $hero, $mmr.</span>
            </li>
          </ul>
        </section>
        <section className="card" aria-labelledby="analytics-title">
          <h3 id="analytics-title" className="section-title">
            Analytics
          </h3>
          <ul className="tile-list">
            <li>
              <strong>Command Usage</strong> <span className="badge badge-success">Active</span>
            </li>
            <li>
              <strong>Error Tracking</strong> <span className="badge badge-success">Enabled</span>
            </li>
          </ul>
        </section>
      </div>
      {extra}
    </div>
  );
}

function Features() {
  return (
    <ul className="info-grid">
      {features.map((feature) => (
        <li key={feature.title} className="card info-card">
          <h3>{feature.title}</h3>
          <p className="muted">{feature.text}</p>
          <span className={`badge ${feature.isActive ? 'badge-success' : 'badge-muted'}`}>
            {feature.isActive ? 'Active' : 'Coming Soon'}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The Setup tab (spec §2): banner slot for linking, inner tabs Overview, Settings and Features. */
export function SetupTab({ banner, settingsExtra }: { banner?: ReactNode; settingsExtra?: ReactNode }) {
  const [section, setSection] = useState<SetupSection>('overview');
  return (
    <div className="setup-tab">
      <div className="tab-header">
        <h2>Bot Setup &amp; Configuration</h2>
      </div>
      {banner}
      <Tabs label="Setup sections" items={sections} activeId={section} onSelect={setSection} className="inner-tabs">
        {section === 'overview' && <Overview />}
        {section === 'settings' && <Settings extra={settingsExtra} />}
        {section === 'features' && <Features />}
      </Tabs>
    </div>
  );
}
