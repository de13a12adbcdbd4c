export interface Category {
  id: number;
  name: string;
}

/**
 * A small fixed category list. Only "Just Chatting" = 15 comes from kick-api.md; the other ids are
 * the sandbox's own (the public API has no stable list to copy offline).
 */
export const categories: readonly Category[] = [
  { id: 15, name: 'Just Chatting' },
  { id: 28, name: 'Slots & Casino' },
  { id: 41, name: 'Dota 2' },
  { id: 52, name: 'Counter-Strike 2' },
  { id: 63, name: 'Music' },
  { id: 74, name: 'IRL' },
];

export const defaultCategoryId = 15;

export const categoryById = (id: number): Category | undefined => categories.find((category) => category.id === id);
