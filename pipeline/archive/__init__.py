"""The static HTML card archive the QR codes open, and the check that every QR URL has its page."""
