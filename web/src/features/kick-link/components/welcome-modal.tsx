import { Modal } from '../../../components/ui/modal';
import { productName } from '../../../config/constants';
import { useStartKickLink } from '../use-start-kick-link';

/** Offered to a streamer without a linked Kick account (spec §2). */
export function WelcomeModal({ onClose }: { onClose: () => void }) {
  const { startLink, isLoading } = useStartKickLink();
  return (
    <Modal title={`Welcome to ${productName}!`} onClose={onClose} className="welcome-modal">
      <p>
        Link your Kick account so the bot can join your channel&apos;s chat, answer your commands and run chat games.
      </p>
      <ol className="steps">
        <li>Link your Kick account</li>
        <li>Start the bot</li>
        <li>Add your own commands</li>
      </ol>
      <div className="modal-actions">
        <button type="button" className="button button-ghost" onClick={onClose}>
          Maybe Later
        </button>
        <button type="button" className="button button-kick" onClick={startLink} disabled={isLoading} data-autofocus>
          {isLoading ? 'Redirecting…' : 'Link Kick Account'}
        </button>
      </div>
    </Modal>
  );
}
