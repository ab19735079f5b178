"""What only a builder does, step by step; `minigrad_site.plugin` calls these in order."""
