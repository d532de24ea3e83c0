// Bundled for workerd (Cloudflare Workers): each POST carries one tour run (JSON) and is
// answered with its report, or `{"error": ...}`.
import { tour } from './tour.js';

export default {
  async fetch(request) {
    try {
      return Response.json(await tour(await request.json()));
    } catch (error) {
      return Response.json({ error: String(error?.stack ?? error) });
    }
  },
};
