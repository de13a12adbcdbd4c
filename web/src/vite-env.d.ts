/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_FEEDBACK_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
