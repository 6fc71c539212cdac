"""The pages: one module per blueprint. No page imports another: what two pages share lives in
a service, a query, a presenter or `templating`."""
