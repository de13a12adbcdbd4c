import {
  importMessages,
  importSources,
  maxImportTextLength,
  type ImportPreview,
  type ImportResult,
  type ImportSource,
} from '@kickstand/api-contract';
import { useState, type ChangeEvent } from 'react';
import { Field, FormError } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { useAppDispatch } from '../../../app/hooks';
import { errorMessage, errorStatus } from '../../../lib/api-error';
import { commandsApi } from '../commands-api';
import { commandStatsApi } from '../usage/usage-api';
import { ImportPreviewTable } from './import-preview-table';
import { useApplyImportMutation, usePreviewImportMutation } from './import-api';
import './import-dialog.css';

const sourceLabels: Record<ImportSource, { name: string; hint: string }> = {
  nightbot: { name: 'Nightbot', hint: 'Its custom commands exported as JSON or CSV.' },
  streamelements: { name: 'StreamElements', hint: 'Its custom commands as JSON.' },
  botrix: { name: 'BotRix', hint: 'Its JSON export, or the command list copied from its dashboard.' },
};

/** What the dialog shows: the text to read, its preview, the import under way, its outcome. */
type Step =
  | { kind: 'input' }
  | { kind: 'preview'; preview: ImportPreview; selected: ReadonlySet<string> }
  | { kind: 'applying'; count: number; phase: 'saving' | 'reloading' }
  | { kind: 'done'; result: ImportResult };

/** The server's reason, or for the body limit's bare 413 what to do about it. */
const reasonOf = (error: unknown, fallback: string): string =>
  errorStatus(error) === 413 ? importMessages.bodyTooLarge : errorMessage(error, fallback);

const readFile = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsText(file);
  });

/** The Import dialog (loaded on demand): choose the bot, paste or pick the export, preview, import. */
export default function ImportDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [source, setSource] = useState<ImportSource>('nightbot');
  const [text, setText] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'input' });
  const [problem, setProblem] = useState<string>();
  const [previewImport, previewState] = usePreviewImportMutation();
  const [applyImport] = useApplyImportMutation();

  const textProblem = text.length > maxImportTextLength ? importMessages.textTooLong : undefined;

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      setText(await readFile(file));
      setProblem(undefined);
    } catch (error) {
      setProblem(errorMessage(error, 'The file could not be read.'));
    }
  };

  const preview = async () => {
    setProblem(undefined);
    try {
      const answer = await previewImport({ source, text }).unwrap();
      const importable = answer.rows.filter((row) => !row.problem).map((row) => row.name);
      setStep({ kind: 'preview', preview: answer, selected: new Set(importable) });
    } catch (error) {
      setProblem(reasonOf(error, 'The export could not be read. Please try again.'));
    }
  };

  const apply = async (names: string[]) => {
    setProblem(undefined);
    setStep({ kind: 'applying', count: names.length, phase: 'saving' });
    let result: ImportResult;
    try {
      result = await applyImport({ source, text, names }).unwrap();
    } catch (error) {
      setProblem(reasonOf(error, 'The import failed; nothing was imported. Please try again.'));
      if (step.kind === 'preview') setStep(step);
      return;
    }
    setStep({ kind: 'applying', count: names.length, phase: 'reloading' });
    // the list and its usage reload before the summary shows, so the tab behind is current
    const reloads = [
      dispatch(commandsApi.endpoints.getCommands.initiate(undefined, { forceRefetch: true })),
      dispatch(commandStatsApi.endpoints.getCommandStats.initiate(undefined, { forceRefetch: true })),
    ];
    // a failed reload does not undo the import: the list shows its own error and retry
    await Promise.allSettled(reloads.map((reload) => reload.unwrap()));
    for (const reload of reloads) reload.unsubscribe();
    setStep({ kind: 'done', result });
  };

  return (
    <Modal title="Import commands" onClose={onClose} className="import-dialog">
      {step.kind === 'input' && (
        <div className="form">
          <Field label="Bot" hint={sourceLabels[source].hint}>
            {(control) => (
              <select
                {...control}
                value={source}
                onChange={(event) => setSource(event.target.value as ImportSource)}
                data-autofocus
              >
                {importSources.map((value) => (
                  <option key={value} value={value}>
                    {sourceLabels[value].name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Export" error={textProblem}>
            {(control) => (
              <textarea
                {...control}
                rows={8}
                value={text}
                placeholder="Paste the export here, or choose its file below."
                onChange={(event) => setText(event.target.value)}
              />
            )}
          </Field>
          <Field label="Or choose a file">
            {(control) => (
              <input
                {...control}
                type="file"
                accept=".json,.csv,.txt,application/json,text/csv,text/plain"
                onChange={chooseFile}
              />
            )}
          </Field>
          <FormError message={problem} />
          <div className="modal-actions">
            <button type="button" className="button button-outline" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={text.trim() === '' || textProblem !== undefined || previewState.isLoading}
              onClick={preview}
            >
              {previewState.isLoading ? 'Reading…' : 'Preview'}
            </button>
          </div>
        </div>
      )}

      {step.kind === 'preview' && (
        <PreviewStep
          preview={step.preview}
          selected={step.selected}
          problem={problem}
          onSelect={(selected) => setStep({ ...step, selected })}
          onBack={() => {
            setProblem(undefined);
            setStep({ kind: 'input' });
          }}
          onImport={() => apply([...step.selected])}
        />
      )}

      {step.kind === 'applying' && <ApplyProgress count={step.count} phase={step.phase} />}

      {step.kind === 'done' && (
        <div>
          <progress className="import-progress" max={2} value={2} aria-label="Import progress" />
          <p role="status">{importMessages.imported(step.result.imported.length)}</p>
          {step.result.skipped.length > 0 && (
            <>
              <p>Not imported:</p>
              <ul className="import-skipped">
                {step.result.skipped.map((row) => (
                  <li key={row.name}>
                    <code>{row.name}</code>: {row.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
          {step.result.aliasesLeftOut.length > 0 && (
            <>
              <p>Aliases left out:</p>
              <ul className="import-skipped">
                {step.result.aliasesLeftOut.map((left) => (
                  <li key={`${left.command}:${left.alias}`}>
                    <code>{left.alias}</code> of <code>{left.command}</code>: {left.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="modal-actions">
            <button type="button" className="button button-primary" onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}

function PreviewStep({
  preview,
  selected,
  problem,
  onSelect,
  onBack,
  onImport,
}: {
  preview: ImportPreview;
  selected: ReadonlySet<string>;
  problem: string | undefined;
  onSelect: (selected: ReadonlySet<string>) => void;
  onBack: () => void;
  onImport: () => void;
}) {
  const importable = preview.rows.filter((row) => !row.problem).map((row) => row.name);
  const isOverLimit = preview.existingCount + selected.size > preview.maxCommands;
  const toggle = (name: string) => {
    const next = new Set(selected);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    onSelect(next);
  };
  return (
    <div>
      <p className="muted">
        {preview.rows.length} found · {importable.length} can be imported · {selected.size} selected · you have{' '}
        {preview.existingCount} of {preview.maxCommands} commands
      </p>
      <div className="actions-row">
        <button
          type="button"
          className="button button-outline button-small"
          onClick={() => onSelect(new Set(importable))}
        >
          Select all
        </button>
        <button type="button" className="button button-outline button-small" onClick={() => onSelect(new Set())}>
          Select none
        </button>
      </div>
      <ImportPreviewTable rows={preview.rows} selected={selected} onToggle={toggle} />
      <FormError
        message={
          isOverLimit ? importMessages.overLimit(preview.existingCount, selected.size, preview.maxCommands) : undefined
        }
      />
      <FormError message={problem} />
      <div className="modal-actions">
        <button type="button" className="button button-outline" onClick={onBack}>
          Back
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={selected.size === 0 || isOverLimit}
          onClick={onImport}
        >
          Import {selected.size} {selected.size === 1 ? 'command' : 'commands'}
        </button>
      </div>
    </div>
  );
}

/** The two real steps of an import: the server checks and writes everything, then the list reloads. */
function ApplyProgress({ count, phase }: { count: number; phase: 'saving' | 'reloading' }) {
  const label =
    phase === 'saving'
      ? `Step 1 of 2: saving ${count} ${count === 1 ? 'command' : 'commands'}…`
      : 'Step 2 of 2: reloading your commands…';
  return (
    <div>
      <progress className="import-progress" max={2} value={phase === 'saving' ? 0 : 1} aria-label="Import progress" />
      <p role="status">{label}</p>
    </div>
  );
}
