"""Who may write what: cleaned texts, vulgar words, violations and blocks, rate limits."""
