import { CountersSection } from './counters-section';
import { TimersSection } from './timers-section';
import './timers.css';

/** Below the commands: the timers and the counters (its own chunk, loaded with the Commands tab). */
export default function TimersAndCounters() {
  return (
    <div className="timers-and-counters">
      <TimersSection />
      <CountersSection />
    </div>
  );
}
