// Fifty distinct goals of the kind agents send, for the benchmarks' "a new goal every call" case
// (bench:rerank, bench:check's goal-new-cost-1k): cycled so that no call repeats the goal before it.
// Written for timing, by hand; none comes from the evaluation goal sets.
export const GOALS_50: readonly string[] = [
  'open the second article about the election results', 'add this to the cart', 'sign in to my account',
  'search for running shoes', 'go to the next page of results', 'subscribe to the newsletter',
  'accept the cookies', 'open the contact page', 'read the privacy policy', 'change the language to German',
  'share this story on Twitter', 'download the annual report as PDF', 'find the opening hours',
  'log out', 'create a new account', 'open the third product in the list', 'go back to the home page',
  'view the shopping basket', 'check out and pay', 'filter by price from low to high',
  'open the menu', 'close the dialog', 'play the video', 'leave a comment on this post',
  'see more articles by this author', 'open the sports section', 'reset my password', 'book a table for two',
  'compare plans and pricing', 'contact customer support', 'track my order', 'apply for the job',
  'open the latest news', 'show the weather forecast for tomorrow', 'read the terms of service',
  'find a store near me', 'open the first result', 'switch to dark mode', 'manage cookie preferences',
  'watch the live stream', 'open the FAQ', 'send a message to the seller', 'rate this product five stars',
  'open my profile settings', 'enter my email address', 'open the careers page',
  'go to the previous article', 'print this page', 'follow this page on Facebook', 'listen to the podcast episode',
];
