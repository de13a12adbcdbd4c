import { Spinner } from '../../../components/ui/spinner';
import { productName } from '../../../config/constants';
import { splashSteps, stepState } from './use-splash';

const marks = { completed: '✓', active: '', pending: '' } as const;

export function LoadingSplash({ isProgress, activeStep }: { isProgress: boolean; activeStep: number }) {
  if (!isProgress) {
    return (
      <div className="center-screen">
        <Spinner label="Loading dashboard" />
      </div>
    );
  }
  return (
    <div className="center-screen">
      <div className="card card-narrow splash" role="status" aria-label="Loading dashboard">
        <h1 className="splash-title">{productName}</h1>
        <ol className="splash-steps">
          {splashSteps.map((step, index) => {
            const state = stepState(index, activeStep);
            return (
              <li key={step} className={`splash-step splash-step-${state}`} data-state={state}>
                <span className="splash-mark" aria-hidden="true">
                  {marks[state]}
                </span>
                {step}
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
