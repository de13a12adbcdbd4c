import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface JwtKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

/**
 * A PEM from the environment: as PEM (with real or `\n`-escaped newlines) or base64 of the PEM,
 * since multi-line values are awkward in .env files and Kubernetes Secrets alike.
 */
export function decodePem(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('-----BEGIN')) return trimmed.replace(/\\n/g, '\n');
  return Buffer.from(trimmed, 'base64').toString('utf8').trim();
}

export function isPublicKeyPem(pem: string): boolean {
  try {
    return createPublicKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

export function isPrivateKeyPem(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

export function generateJwtKeyPair(): JwtKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * Single-machine mode: the key pair made at the first start and kept under `<dir>` (the private
 * key readable by its owner only), so sign-ins survive a restart.
 */
export async function loadOrCreateJwtKeyPair(dir: string): Promise<JwtKeyPair> {
  const privatePath = path.join(dir, 'jwt-private.pem');
  const publicPath = path.join(dir, 'jwt-public.pem');
  try {
    return { privateKeyPem: await readFile(privatePath, 'utf8'), publicKeyPem: await readFile(publicPath, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const pair = generateJwtKeyPair();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(privatePath, pair.privateKeyPem, { mode: 0o600 });
  await chmod(privatePath, 0o600);
  await writeFile(publicPath, pair.publicKeyPem, { mode: 0o644 });
  return pair;
}
