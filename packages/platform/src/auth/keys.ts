import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { privateDirMode, privateFileMode, restrictMode, writePrivateFile } from '../files';

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
    const pair = {
      privateKeyPem: await readFile(privatePath, 'utf8'),
      publicKeyPem: await readFile(publicPath, 'utf8'),
    };
    // keys made by an older version may be world-readable
    await restrictMode(dir, privateDirMode);
    await restrictMode(privatePath, privateFileMode);
    await restrictMode(publicPath, privateFileMode);
    return pair;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const pair = generateJwtKeyPair();
  await writePrivateFile(privatePath, pair.privateKeyPem);
  await writePrivateFile(publicPath, pair.publicKeyPem);
  return pair;
}
