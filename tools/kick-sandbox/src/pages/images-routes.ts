import { Router } from 'express';
import type { KickUsers } from '../kick-users';
import { categoryById } from '../categories';
import { escapeHtml } from './html';

const fileName = /^(user|banner|category|stream)-(\d{1,15})\.svg$/;
const palette = ['#53fc18', '#1e90ff', '#ff69b4', '#ffa500', '#8a2be2', '#00ced1', '#ff4500', '#9acd32'];

function placeholder(label: string, seed: number, width: number, height: number): string {
  const color = palette[seed % palette.length] ?? '#53fc18';
  const fontSize = Math.round(Math.min(width, height) / (label.length > 2 ? 5 : 2.2));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<rect width="100%" height="100%" fill="#191b1f"/><rect x="4" y="4" width="${width - 8}" height="${height - 8}" rx="12" fill="${color}" opacity="0.85"/>
<text x="50%" y="50%" dominant-baseline="central" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${fontSize}" fill="#0b0e0f">${escapeHtml(label)}</text></svg>`;
}

/** Placeholder pictures for profile, banner, category and stream thumbnails: nothing leaves the machine. */
export function imagesRoutes({ users }: { users: KickUsers }): Router {
  const router = Router();
  router.get('/sandbox/images/:file', async (req, res) => {
    const match = fileName.exec(req.params.file);
    const kind = match?.[1];
    const id = Number(match?.[2]);
    if (!kind) {
      res.status(404).json({ success: false, error: 'No such image' });
      return;
    }
    let svg: string;
    if (kind === 'category') {
      svg = placeholder(categoryById(id)?.name ?? `Category ${id}`, id, 285, 380);
    } else {
      const user = await users.byId(id);
      const name = user?.username ?? String(id);
      svg =
        kind === 'user'
          ? placeholder(name.slice(0, 1).toUpperCase(), id, 128, 128)
          : placeholder(kind === 'banner' ? name : `${name} live`, id, 1280, 720);
    }
    // the product's pages (another origin) show these images
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('image/svg+xml').send(svg);
  });
  return router;
}
