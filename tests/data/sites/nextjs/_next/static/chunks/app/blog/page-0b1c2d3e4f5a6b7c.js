(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[30],{}]);
