import { createHash, randomBytes } from 'node:crypto';

/** A one-time enrolment link's token (192 random bits); only its hash is stored. */
export const newEnrolmentToken = () => randomBytes(24).toString('base64url');

/** Enrolment links are stored as their hash. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** An enrolment link is good for a day, once. */
export const ENROLMENT_MS = 24 * 60 * 60 * 1000;
