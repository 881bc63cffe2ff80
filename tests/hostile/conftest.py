import os
import sys

sys.path.append(os.path.dirname(__file__))
