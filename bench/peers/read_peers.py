"""The Python read peers for bench/peers.bench.ts, one process (one core), driven over stdin/stdout.

Each input line is JSON {"peer": name, "path": file (.html or .html.gz), "url": page URL}; each output
line is JSON {"text": extracted plain text or Markdown, "cpu_ms": this process's CPU time for the
extraction alone (reading the file excluded), "error": message or null}. The peers run as their
documentation shows, with their defaults, on HTML only: nothing here opens a network connection.
"""
import gzip
import json
import sys
import time


def _trafilatura():
    import trafilatura
    return lambda html, url: trafilatura.extract(html, url=url, output_format="txt") or ""


def _rs_trafilatura():
    import rs_trafilatura
    return lambda html, url: rs_trafilatura.extract(html, url=url).main_content or ""


def _readability_lxml():
    from lxml import html as lxml_html
    from readability import Document

    def run(html, url):
        summary = Document(html, url=url).summary(html_partial=True)
        return lxml_html.fromstring(summary).text_content() if summary.strip() else ""
    return run


def _crawl4ai(fit):
    # Crawl4AI's own HTML-to-Markdown steps without its browser: the LXML scraping strategy, then the
    # default Markdown generator (raw_markdown: its default output), or with the pruning content filter
    # (fit_markdown: its main-content output).
    from crawl4ai.content_scraping_strategy import LXMLWebScrapingStrategy
    from crawl4ai.markdown_generation_strategy import DefaultMarkdownGenerator
    from crawl4ai.content_filter_strategy import PruningContentFilterLXML as PruningContentFilter
    scraper = LXMLWebScrapingStrategy()
    generator = DefaultMarkdownGenerator(content_filter=PruningContentFilter()) if fit else DefaultMarkdownGenerator()

    def run(html, url):
        scraped = scraper.scrap(url, html)
        md = generator.generate_markdown(input_html=scraped.cleaned_html, base_url=url)
        return (md.fit_markdown if fit else md.raw_markdown) or ""
    return run


FACTORIES = {
    "trafilatura": _trafilatura,
    "rs-trafilatura": _rs_trafilatura,
    "readability-lxml": _readability_lxml,
    "crawl4ai": lambda: _crawl4ai(False),
    "crawl4ai-fit": lambda: _crawl4ai(True),
}


def main():
    peers = {}
    for line in sys.stdin:
        job = json.loads(line)
        name = job["peer"]
        out = {"text": "", "cpu_ms": 0.0, "error": None}
        try:
            if name not in peers:
                peers[name] = FACTORIES[name]()
            path = job["path"]
            raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
            html = raw.decode("utf-8", "replace")
            t0 = time.process_time()
            out["text"] = peers[name](html, job["url"])
            out["cpu_ms"] = (time.process_time() - t0) * 1000
        except Exception as err:  # a peer that fails on a page scores that page as empty
            out["error"] = f"{type(err).__name__}: {err}"[:300]
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
