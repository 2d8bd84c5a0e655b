import { Router } from 'express';
import { AppError } from '../errors/app-error';
import { localPhotoStorage } from './storage';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', heic: 'image/heic', heif: 'image/heif' };

/**
 * Serves local-disk photos behind signed, expiring links (no API key: the link is the credential).
 * A tampered, expired or unknown link is a plain 404, so links reveal nothing.
 */
export function photoFilesRouter(): Router {
  const router = Router();
  router.get(/.*/, (req, res, next) => {
    const storage = localPhotoStorage();
    const key = req.path.replace(/^\//, '');
    if (!storage.verify(key, req.query.expires, req.query.sig)) return next(AppError.notFound('Photo'));
    const expiresIn = Math.max(0, Number(req.query.expires) - Math.floor(Date.now() / 1000));
    // verify() has checked the key's shape. Relative to the storage root: `dotfiles: 'deny'` then judges the key alone, not the root's
    // own path (the default DATA_DIR is ./.data).
    res.sendFile(key, {
      root: storage.root,
      headers: { 'Content-Type': TYPES[key.split('.').pop()!], 'Cache-Control': `private, max-age=${expiresIn}` },
      dotfiles: 'deny',
    }, (err) => {
      if (err && !res.headersSent) next(AppError.notFound('Photo'));
    });
  });
  return router;
}
