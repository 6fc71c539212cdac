"""The app's forms, one module per subject: what each form asks and how it reads what was sent.

The blueprints show them and hand what they read to the services.
"""
