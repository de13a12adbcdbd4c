import { useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { Tabs } from '../../../components/ui/tabs';
import { productName } from '../../../config/constants';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

type AuthTab = 'login' | 'register';

const tabs = [
  { id: 'login', label: 'Login' },
  { id: 'register', label: 'Register' },
] as const;

/** The Login/Register modal (spec §2): closes by the × button, a click on the backdrop or Escape. */
export function LoginModal({ onClose, initialTab = 'login' }: { onClose: () => void; initialTab?: AuthTab }) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  return (
    <Modal title={`Sign in to ${productName}`} onClose={onClose} className="login-modal">
      <Tabs label="Sign in or create an account" items={tabs} activeId={tab} onSelect={setTab}>
        {tab === 'login' ? <LoginForm onLoggedIn={onClose} /> : <RegisterForm onRegistered={() => setTab('login')} />}
      </Tabs>
    </Modal>
  );
}
