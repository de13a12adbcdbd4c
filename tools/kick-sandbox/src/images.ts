/**
 * Picture URLs point at the sandbox itself (placeholder SVGs), so nothing reaches the internet.
 * Built at answer time from the configured public URL, so changing it fixes old records too.
 */
export interface ImageUrls {
  avatar(userId: number): string;
  banner(userId: number): string;
  category(categoryId: number): string;
  streamThumbnail(userId: number): string;
}

export function createImageUrls(publicUrl: string): ImageUrls {
  const image = (name: string) => `${publicUrl}/sandbox/images/${name}.svg`;
  return {
    avatar: (userId) => image(`user-${userId}`),
    banner: (userId) => image(`banner-${userId}`),
    category: (categoryId) => image(`category-${categoryId}`),
    streamThumbnail: (userId) => image(`stream-${userId}`),
  };
}
