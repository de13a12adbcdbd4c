import { lazy, Suspense, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';

// The dialog and its preview table load only when the streamer opens it.
const ImportDialog = lazy(() => import('./import-dialog'));

/** "Import" on the Commands tab: opens the import dialog. */
export function ImportButton() {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-outline" onClick={() => setOpen(true)}>
        Import
      </button>
      {isOpen && (
        <Suspense fallback={<Spinner label="Loading the import" />}>
          <ImportDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
