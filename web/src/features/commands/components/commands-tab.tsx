import { useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useGetCommandsQuery } from '../commands-api';
import { AddCommandForm } from './add-command-form';
import { CommandList } from './command-list';
import { ImportButton } from '../import/import-button';
import { VariablesList } from './variables-list';

/** The Commands tab: Add Command toggles the form; the list below (spec §2). */
export function CommandsTab() {
  const { data: commands = [], isLoading, isError, refetch } = useGetCommandsQuery();
  const [isFormOpen, setFormOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const closeForm = () => {
    setFormOpen(false);
    setFormKey((key) => key + 1);
  };

  return (
    <div className="commands-tab">
      <div className="tab-header">
        <div>
          <h2>Custom Commands</h2>
          <p className="muted">Viewers type these in chat; the bot answers with your response.</p>
        </div>
        <div className="actions-row">
          <ImportButton />
          <button
            type="button"
            className="button button-primary"
            aria-expanded={isFormOpen}
            onClick={() => (isFormOpen ? closeForm() : setFormOpen(true))}
          >
            {isFormOpen ? 'Close Form' : 'Add Command'}
          </button>
        </div>
      </div>
      {isFormOpen && (
        <AddCommandForm
          key={formKey}
          existingNames={commands.map((command) => command.command)}
          onAdded={closeForm}
          onCancel={closeForm}
        />
      )}
      {isLoading ? (
        <Spinner label="Loading commands" />
      ) : isError ? (
        <div className="card empty-state" role="alert">
          <p>Your commands could not be loaded.</p>
          <button type="button" className="button button-outline" onClick={() => refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <CommandList commands={commands} />
      )}
      <VariablesList />
    </div>
  );
}
