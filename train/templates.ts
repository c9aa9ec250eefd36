// Page templates for the goal-rerank data set: realistic pages of ten kinds (log-in, search results,
// shop, news, checkout, settings, mail, sign-up, docs, flights), each drawn with a seeded random
// generator (labels from synonyms, item names, order, layout, noise links), with the goals a user
// would give on it and the element each goal needs (`data-goal` marks it; the collector never reads it).

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const shuffle = <T>(r: Rng, xs: readonly T[]): T[] => { const a = [...xs]; for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; };
const some = <T>(r: Rng, xs: readonly T[], n: number): T[] => shuffle(r, xs).slice(0, n);
const ORD = ['first', 'second', 'third', 'fourth', 'fifth'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export interface Goal { goal: string; target: string }
export interface Generated { html: string; goals: Goal[] }

let counter = 0;
/** Marks the element a goal targets; returns the attribute and its key. */
function mark(): [string, string] {
  const key = `g${++counter}`;
  return [`data-goal="${key}"`, key];
}

const NAV = ['Home', 'Products', 'Pricing', 'About us', 'Blog', 'Careers', 'Contact', 'Help', 'Support', 'Community', 'Partners', 'Press', 'Docs', 'Status', 'Events'];
const FOOT = ['Privacy', 'Terms of use', 'Cookie settings', 'Accessibility', 'Sitemap', 'Imprint', 'Jobs', 'Investors', 'Affiliates', 'Security'];
const BRANDS = ['Acme', 'Northwind', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Contoso', 'Fabrikam'];
const PRODUCTS = ['wireless headphones', 'running shoes', 'coffee grinder', 'desk lamp', 'backpack', 'mechanical keyboard', 'water bottle', 'yoga mat',
  'electric kettle', 'phone case', 'smart watch', 'camping tent', 'office chair', 'blender', 'sunglasses', 'winter jacket', 'board game', 'air fryer'];
const TOPICS = ['election results', 'climate summit', 'stock markets', 'football final', 'space telescope', 'housing prices', 'vaccine trial', 'film festival',
  'tech layoffs', 'wildfire season', 'trade talks', 'marathon record', 'rail strike', 'central bank rates', 'music awards', 'heat wave'];
const PEOPLE = ['Alice Martin', 'Bob Chen', 'Carla Diaz', 'David Okafor', 'Emma Novak', 'Farid Haddad', 'Grace Kim', 'Hugo Silva', 'Ines Berg', 'Jonas Weber'];
const SUBJECTS = ['Invoice for March', 'Team lunch on Friday', 'Your order has shipped', 'Quarterly report draft', 'Password reset request', 'Meeting notes',
  'Weekend plans', 'Flight confirmation', 'Contract renewal', 'Welcome aboard'];
const CITIES = ['Berlin', 'Lisbon', 'Madrid', 'Oslo', 'Paris', 'Rome', 'Vienna', 'Dublin', 'Prague', 'Warsaw', 'Athens', 'Zurich'];

function page(r: Rng, title: string, body: string): string {
  const width = pick(r, [960, 1080, 1200]);
  const nav = some(r, NAV, 4 + Math.floor(r() * 5)).map((t) => `<a href="/${t.toLowerCase().replace(/\s+/g, '-')}">${t}</a>`).join(' ');
  const foot = some(r, FOOT, 3 + Math.floor(r() * 5)).map((t) => `<a href="/${t.toLowerCase().replace(/\s+/g, '-')}">${t}</a>`).join(' · ');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title><style>
body{font-family:sans-serif;margin:0} header,footer{padding:12px 24px;background:#f3f3f3} header a,footer a{margin-right:14px}
main{max-width:${width}px;margin:16px auto;padding:0 16px} input,select,textarea{padding:6px;margin:4px 0;display:block}
button{padding:8px 14px;margin:4px 4px 4px 0} .primary{background:#1a62d6;color:#fff;border:0} .card{display:inline-block;width:220px;vertical-align:top;margin:8px;padding:8px;border:1px solid #ddd}
.row{padding:8px;border-bottom:1px solid #eee} .side{float:left;width:200px} .side a{display:block;margin:6px 0} .content{margin-left:220px}
</style></head><body><header><strong>${pick(r, BRANDS)}</strong> ${nav}</header><main>${body}</main><footer>${foot}</footer></body></html>`;
}

function login(r: Rng): Generated {
  const goals: Goal[] = [];
  const [emailM, emailK] = mark(), [passM, passK] = mark(), [submitM, submitK] = mark(), [forgotM, forgotK] = mark();
  const [rememberM, rememberK] = mark(), [signupM, signupK] = mark(), [googleM, googleK] = mark();
  const user = pick(r, ['Email', 'Email address', 'Username', 'Email or username']);
  const submit = pick(r, ['Sign in', 'Log in', 'Continue', 'Sign in securely']);
  const parts = [
    `<label>${user}<input type="${user === 'Username' ? 'text' : 'email'}" name="user" ${emailM}></label>`,
    `<label>Password<input type="password" name="password" ${passM}></label>`,
    `<label><input type="checkbox" ${rememberM}> ${pick(r, ['Remember me', 'Keep me signed in', 'Stay logged in'])}</label>`,
    `<button type="submit" class="primary" ${submitM}>${submit}</button>`,
    `<a href="/forgot" ${forgotM}>${pick(r, ['Forgot password?', 'Forgot your password?', 'Reset password'])}</a>`,
    `<p>New here? <a href="/signup" ${signupM}>${pick(r, ['Create an account', 'Sign up', 'Register'])}</a></p>`,
    `<button type="button" ${googleM}>Continue with Google</button>`,
  ];
  goals.push({ goal: pick(r, ['log in', 'sign in to my account', 'log into the site', 'submit the login form']), target: submitK });
  goals.push({ goal: pick(r, ['enter my email', 'type my username', 'fill in the email field', 'enter my email address']), target: emailK });
  goals.push({ goal: pick(r, ['type the password', 'enter my password']), target: passK });
  goals.push({ goal: pick(r, ['reset my password', 'I forgot my password', 'recover my password']), target: forgotK });
  goals.push({ goal: pick(r, ['create an account', 'sign up for a new account', 'register']), target: signupK });
  goals.push({ goal: pick(r, ['remember me', 'keep me signed in', 'check stay logged in']), target: rememberK });
  goals.push({ goal: pick(r, ['continue with google', 'log in with my Google account']), target: googleK });
  return { html: page(r, 'Sign in', `<h1>${pick(r, ['Sign in', 'Welcome back', 'Log in to your account'])}</h1><form onsubmit="return false">${parts.join('\n')}</form>`), goals };
}

function search(r: Rng): Generated {
  const goals: Goal[] = [];
  const query = pick(r, PRODUCTS);
  const [boxM, boxK] = mark(), [goM, goK] = mark(), [nextM, nextK] = mark(), [sortM, sortK] = mark();
  const n = 6 + Math.floor(r() * 5);
  const titles = some(r, [...PRODUCTS.map((p) => `Best ${p} of 2026`), ...TOPICS.map((t) => `${t}: what to know`)], n);
  const results = titles.map((t, i) => {
    const [m, k] = mark();
    if (i < 5) goals.push({ goal: pick(r, [`open the ${ORD[i]} result`, `click the ${ORD[i]} search result`, `go to the ${ORD[i]} link in the results`]), target: k });
    if (i === Math.floor(r() * n)) goals.push({ goal: `open ${t.split(':')[0].toLowerCase()}`, target: k });
    return `<div class="row"><a href="/r/${i}" ${m}>${esc(t)}</a><p>${esc(pick(r, TOPICS))} and more from ${pick(r, BRANDS)}.</p></div>`;
  });
  const brands = some(r, BRANDS, 4).map((b, i) => {
    const [m, k] = mark();
    if (i === 0) goals.push({ goal: pick(r, [`filter by ${b}`, `only show ${b}`, `select the ${b} brand`]), target: k });
    return `<label><input type="checkbox" ${m}> ${b}</label>`;
  });
  goals.push({ goal: pick(r, [`search for ${pick(r, PRODUCTS)}`, `type ${pick(r, PRODUCTS)} in the search box`, `find ${pick(r, PRODUCTS)}`]), target: boxK });
  goals.push({ goal: pick(r, ['go to the next page', 'next page of results', 'show more results']), target: nextK });
  goals.push({ goal: pick(r, ['sort by price', 'change the sort order']), target: sortK });
  const body = `<form onsubmit="return false"><input type="search" aria-label="Search" value="${esc(query)}" ${boxM}><button ${goM}>Search</button></form>
<div class="side"><h3>Brand</h3>${brands.join('')}<select aria-label="Sort by" ${sortM}><option>Relevance</option><option>Price</option></select></div>
<div class="content"><p>About ${Math.floor(r() * 9000 + 100)} results</p>${results.join('\n')}
<nav><a href="?p=1">1</a> <a href="?p=2">2</a> <a href="?p=3">3</a> <a href="?p=2" ${nextM}>${pick(r, ['Next', 'Next page', 'More results'])}</a></nav></div>`;
  void goK;
  return { html: page(r, `${query} - Search`, body), goals };
}

function shop(r: Rng): Generated {
  const goals: Goal[] = [];
  const items = some(r, PRODUCTS, 6 + Math.floor(r() * 4));
  const [cartM, cartK] = mark(), [boxM, boxK] = mark();
  const cards = items.map((p, i) => {
    const [linkM, linkK] = mark(), [addM, addK] = mark();
    const name = `${pick(r, BRANDS)} ${p}`;
    if (i === Math.floor(r() * items.length)) goals.push({ goal: pick(r, [`add the ${p} to my cart`, `buy the ${p}`, `add ${p} to basket`]), target: addK });
    if (i === Math.floor(r() * items.length)) goals.push({ goal: pick(r, [`open the ${p} page`, `view details of the ${p}`, `show me the ${p}`]), target: linkK });
    if (i < 3 && r() < 0.4) goals.push({ goal: `add the ${ORD[i]} product to the cart`, target: addK });
    return `<div class="card"><a href="/p/${i}" ${linkM}>${esc(name)}</a><p>$${(r() * 200 + 5).toFixed(2)}</p><button ${addM}>${pick(r, ['Add to cart', 'Add to basket', 'Buy now'])}</button></div>`;
  });
  goals.push({ goal: pick(r, ['open my cart', 'view the shopping cart', 'go to checkout']), target: cartK });
  goals.push({ goal: pick(r, [`search the store for ${pick(r, PRODUCTS)}`, 'search products']), target: boxK });
  return { html: page(r, 'Shop', `<input type="search" placeholder="Search products" ${boxM}><a href="/cart" ${cartM}>${pick(r, ['Cart (2)', 'Basket', 'My cart'])}</a><h1>${pick(r, ['Deals', 'New arrivals', 'Best sellers'])}</h1>${cards.join('\n')}`), goals };
}

function news(r: Rng): Generated {
  const goals: Goal[] = [];
  const sections = some(r, ['World', 'Business', 'Sport', 'Technology', 'Science', 'Culture', 'Travel', 'Opinion', 'Health', 'Politics'], 6);
  const secLinks = sections.map((s, i) => {
    const [m, k] = mark();
    if (i === Math.floor(r() * sections.length)) goals.push({ goal: pick(r, [`go to the ${s.toLowerCase()} section`, `open ${s.toLowerCase()} news`, `show ${s.toLowerCase()}`]), target: k });
    return `<a href="/${s.toLowerCase()}" ${m}>${s}</a>`;
  });
  const stories = some(r, TOPICS, 7).map((t, i) => {
    const [m, k] = mark();
    if (i === Math.floor(r() * 7)) goals.push({ goal: pick(r, [`read the article about the ${t}`, `open the story on ${t}`, `news about ${t}`]), target: k });
    if (i < 3 && r() < 0.5) goals.push({ goal: `open the ${ORD[i]} story`, target: k });
    return `<div class="row"><a href="/story/${i}" ${m}><h3>${esc(t[0].toUpperCase() + t.slice(1))}: ${pick(r, ['live updates', 'what we know', 'analysis', 'in pictures'])}</h3></a><p>${pick(r, PEOPLE)} reports.</p></div>`;
  });
  const [subM, subK] = mark(), [signM, signK] = mark();
  goals.push({ goal: pick(r, ['subscribe', 'subscribe to the newspaper', 'get a subscription']), target: subK });
  goals.push({ goal: pick(r, ['sign in', 'log in to my account']), target: signK });
  // Named lists beside the stories ("the second story in Most read"): two or three lists of the same
  // shape under headings, and a menu named by its aria-label; the goal names the list and a position.
  const lists = some(r, ['Most read', 'Popular', 'Latest', "Editor's picks", 'Trending', 'Most shared'], 2 + Math.floor(r() * 2)).map((name) => {
    const items = some(r, TOPICS, 4).map((t, i) => {
      const [m, k] = mark();
      if (r() < 0.12) goals.push({ goal: pick(r, [`open the ${ORD[i]} story in ${name}`, `the ${ORD[i]} item in the ${name} list`, `click the ${ORD[i]} link under ${name}`]), target: k });
      return `<a href="/story/${name.length}-${i}" ${m}>${esc(t[0].toUpperCase() + t.slice(1))}</a>`;
    });
    return `<h4>${esc(name)}</h4>${items.join('')}`;
  });
  const menuName = pick(r, ['Sport', 'Regions', 'Services', 'More sections']);
  const menu = some(r, ['Football', 'Tennis', 'Cricket', 'Rugby', 'Golf', 'Cycling', 'Boxing', 'Athletics'], 5).map((t, i) => {
    const [m, k] = mark();
    if (r() < 0.15) goals.push({ goal: pick(r, [`the ${ORD[i]} link in the ${menuName} menu`, `open the ${ORD[i]} entry of the ${menuName} menu`]), target: k });
    return `<a href="/${t.toLowerCase()}" ${m}>${t}</a>`;
  });
  return { html: page(r, 'News', `<nav>${secLinks.join(' ')}</nav><button class="primary" ${subM}>${pick(r, ['Subscribe', 'Subscribe now', 'Support us'])}</button><a href="/login" ${signM}>Sign in</a><div class="side">${lists.join('')}</div><div class="content">${stories.join('\n')}</div><nav aria-label="${menuName}">${menu.join(' ')}</nav>`), goals };
}

function checkout(r: Rng): Generated {
  const goals: Goal[] = [];
  const fields = shuffle(r, [['Full name', 'enter my name'], ['Street address', 'type my street address'], ['City', 'fill in the city'], ['ZIP code', 'enter the zip code'],
    ['Phone number', 'enter my phone number'], ['Email for receipt', 'type the email for the receipt']] as const);
  const inputs = fields.map(([label, goal], i) => {
    const [m, k] = mark();
    if (i < 4) goals.push({ goal, target: k });
    return `<label>${label}<input type="text" ${m}></label>`;
  });
  const [countryM, countryK] = mark(), [placeM, placeK] = mark(), [couponM, couponK] = mark(), [applyM, applyK] = mark(), [backM, backK] = mark();
  goals.push({ goal: pick(r, ['choose my country', 'select the country']), target: countryK });
  goals.push({ goal: pick(r, ['place the order', 'pay now', 'confirm my purchase', 'complete the order']), target: placeK });
  goals.push({ goal: pick(r, ['enter a coupon code', 'type the discount code']), target: couponK });
  goals.push({ goal: pick(r, ['apply the coupon', 'apply discount']), target: applyK });
  goals.push({ goal: pick(r, ['go back to the cart', 'return to my cart']), target: backK });
  return { html: page(r, 'Checkout', `<h1>Checkout</h1><form onsubmit="return false">${inputs.join('')}<select aria-label="Country" ${countryM}><option>Germany</option><option>France</option></select>
<input type="text" placeholder="Coupon code" ${couponM}><button type="button" ${applyM}>Apply</button>
<button type="submit" class="primary" ${placeM}>${pick(r, ['Place order', 'Pay now', 'Complete purchase'])}</button></form><a href="/cart" ${backM}>Back to cart</a>`), goals };
}

function settings(r: Rng): Generated {
  const goals: Goal[] = [];
  const tabs = ['Profile', 'Security', 'Notifications', 'Billing', 'Privacy'].map((t, i) => {
    const [m, k] = mark();
    if (i === Math.floor(r() * 5)) goals.push({ goal: pick(r, [`open the ${t.toLowerCase()} tab`, `go to ${t.toLowerCase()} settings`]), target: k });
    return `<button role="tab" ${m}>${t}</button>`;
  });
  const toggles = some(r, ['Dark mode', 'Email notifications', 'Two-factor authentication', 'Public profile', 'Weekly digest', 'Autoplay videos'], 4).map((t, i) => {
    const [m, k] = mark();
    if (i < 2) goals.push({ goal: pick(r, [`enable ${t.toLowerCase()}`, `turn on ${t.toLowerCase()}`, `toggle ${t.toLowerCase()}`]), target: k });
    return `<label><input type="checkbox" role="switch" ${m}> ${t}</label>`;
  });
  const [saveM, saveK] = mark(), [delM, delK] = mark(), [nameM, nameK] = mark();
  goals.push({ goal: pick(r, ['save changes', 'save my settings']), target: saveK });
  goals.push({ goal: pick(r, ['delete my account', 'remove my account']), target: delK });
  goals.push({ goal: pick(r, ['change my display name', 'edit my name']), target: nameK });
  return { html: page(r, 'Settings', `<h1>Settings</h1><div role="tablist">${tabs.join('')}</div><label>Display name<input type="text" ${nameM}></label>${toggles.join('')}
<button class="primary" ${saveM}>${pick(r, ['Save', 'Save changes', 'Update'])}</button><button ${delM}>Delete account</button>`), goals };
}

function mail(r: Rng): Generated {
  const goals: Goal[] = [];
  const [composeM, composeK] = mark(), [searchM, searchK] = mark();
  const folders = ['Inbox', 'Starred', 'Sent', 'Drafts', 'Spam', 'Trash'].map((f, i) => {
    const [m, k] = mark();
    if (i === 1 + Math.floor(r() * 5)) goals.push({ goal: pick(r, [`open the ${f.toLowerCase()} folder`, `show my ${f.toLowerCase()}`, `go to ${f.toLowerCase()}`]), target: k });
    return `<a href="/${f.toLowerCase()}" ${m}>${f}</a>`;
  });
  const rows = some(r, PEOPLE, 7).map((p, i) => {
    const [m, k] = mark();
    const subject = pick(r, SUBJECTS);
    if (i === Math.floor(r() * 7)) goals.push({ goal: pick(r, [`open the email from ${p.split(' ')[0]}`, `read ${p}'s message`]), target: k });
    if (i < 3 && r() < 0.5) goals.push({ goal: `open the ${ORD[i]} email`, target: k });
    return `<div class="row"><a href="/m/${i}" ${m}>${esc(p)} — ${esc(subject)}</a></div>`;
  });
  goals.push({ goal: pick(r, ['write a new email', 'compose a message', 'new email']), target: composeK });
  goals.push({ goal: pick(r, [`search my mail for ${pick(r, SUBJECTS).toLowerCase()}`, 'search emails']), target: searchK });
  return { html: page(r, 'Mail', `<input type="search" placeholder="Search mail" ${searchM}><div class="side"><button class="primary" ${composeM}>${pick(r, ['Compose', 'New message', 'Write'])}</button>${folders.join('')}</div><div class="content">${rows.join('')}</div>`), goals };
}

function signup(r: Rng): Generated {
  const goals: Goal[] = [];
  const fields = [['First name', 'enter my first name'], ['Last name', 'type my last name'], ['Email', 'enter my email address'], ['Password', 'choose a password'], ['Confirm password', 'confirm the password']] as const;
  const inputs = fields.map(([label, goal]) => {
    const [m, k] = mark();
    goals.push({ goal, target: k });
    return `<label>${label}<input type="${label.includes('assword') ? 'password' : 'text'}" ${m}></label>`;
  });
  const [termsM, termsK] = mark(), [createM, createK] = mark(), [loginM, loginK] = mark();
  goals.push({ goal: pick(r, ['agree to the terms', 'accept the terms and conditions']), target: termsK });
  goals.push({ goal: pick(r, ['create my account', 'sign up', 'register now', 'submit the registration']), target: createK });
  goals.push({ goal: pick(r, ['I already have an account, sign in', 'go to the login page']), target: loginK });
  return { html: page(r, 'Create account', `<h1>Create your account</h1><form onsubmit="return false">${inputs.join('')}<label><input type="checkbox" ${termsM}> I agree to the Terms</label>
<button type="submit" class="primary" ${createM}>${pick(r, ['Create account', 'Sign up', 'Register'])}</button></form><p>Already have an account? <a href="/login" ${loginM}>Sign in</a></p>`), goals };
}

function docs(r: Rng): Generated {
  const goals: Goal[] = [];
  const topics = ['Getting started', 'Installation', 'Configuration', 'API reference', 'Authentication', 'Deployment', 'Troubleshooting', 'Changelog', 'Migration guide', 'FAQ'];
  const side = some(r, topics, 7).map((t, i) => {
    const [m, k] = mark();
    if (i === Math.floor(r() * 7)) goals.push({ goal: pick(r, [`open the ${t.toLowerCase()} page`, `read about ${t.toLowerCase()}`, `go to ${t.toLowerCase()}`]), target: k });
    return `<a href="/docs/${i}" ${m}>${t}</a>`;
  });
  const [searchM, searchK] = mark(), [nextM, nextK] = mark(), [editM, editK] = mark(), [copyM, copyK] = mark();
  goals.push({ goal: pick(r, ['search the docs', `search the documentation for ${pick(r, topics).toLowerCase()}`]), target: searchK });
  goals.push({ goal: pick(r, ['go to the next page', 'next article']), target: nextK });
  goals.push({ goal: pick(r, ['edit this page', 'suggest an edit']), target: editK });
  goals.push({ goal: pick(r, ['copy the code', 'copy the install command']), target: copyK });
  return { html: page(r, 'Docs', `<input type="search" placeholder="Search docs" ${searchM}><div class="side">${side.join('')}</div><div class="content"><h1>${pick(r, topics)}</h1>
<p>Run the installer, then configure your project.</p><pre>npm install ${pick(r, BRANDS).toLowerCase()}</pre><button ${copyM}>Copy</button><a href="/edit" ${editM}>Edit this page</a> <a href="/prev">Previous</a> <a href="/next" ${nextM}>Next: ${pick(r, topics)}</a></div>`), goals };
}

function flights(r: Rng): Generated {
  const goals: Goal[] = [];
  const [fromM, fromK] = mark(), [toM, toK] = mark(), [dateM, dateK] = mark(), [goM, goK] = mark(), [oneM, oneK] = mark(), [paxM, paxK] = mark();
  goals.push({ goal: pick(r, [`fly from ${pick(r, CITIES)}`, 'set the departure city', `enter ${pick(r, CITIES)} as origin`]), target: fromK });
  goals.push({ goal: pick(r, [`set the destination to ${pick(r, CITIES)}`, 'enter where I am going']), target: toK });
  goals.push({ goal: pick(r, ['pick the departure date', 'choose the travel date']), target: dateK });
  goals.push({ goal: pick(r, ['search for flights', 'find flights', 'show available flights']), target: goK });
  goals.push({ goal: pick(r, ['choose one-way', 'select a one way trip']), target: oneK });
  goals.push({ goal: pick(r, ['set the number of passengers', 'select 2 travellers']), target: paxK });
  return { html: page(r, 'Flights', `<h1>Find a flight</h1><form onsubmit="return false"><label><input type="radio" name="t" checked> Round trip</label><label><input type="radio" name="t" ${oneM}> One-way</label>
<label>From<input type="text" placeholder="City or airport" ${fromM}></label><label>To<input type="text" placeholder="City or airport" ${toM}></label><label>Departure<input type="date" ${dateM}></label>
<select aria-label="Passengers" ${paxM}><option>1 adult</option><option>2 adults</option></select><button class="primary" ${goM}>${pick(r, ['Search flights', 'Search', 'Find flights'])}</button></form>`), goals };
}

export const TEMPLATES = { login, search, shop, news, checkout, settings, mail, signup, docs, flights };
export type TemplateName = keyof typeof TEMPLATES;
